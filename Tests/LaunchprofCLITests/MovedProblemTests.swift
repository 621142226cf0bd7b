import LaunchCore
import LaunchFlameGraphs
import LaunchManifest
import LaunchprofTestSupport
import Testing

@testable import LaunchprofCLI

/// The refusals that were `CheckProblem`'s but are not check's, now in the enum of what they are
/// about, worded as before and printed by the CLI's one edge.
@Suite struct MovedProblemTests {
    @Test func flameGraphRefusalsAreTheFlameGraphModules() {
        #expect(
            FlameGraphError.noDifferentialSpeedscope.description == "speedscope has no differential profile: diff --flame-graph writes svg or folded")
        #expect(
            FlameGraphError.unitsDiffer(baseline: "a.json", baselineUnit: .instructions, candidate: "b.json", candidateUnit: .samples).description
                == "a.json weighs stacks in instructions and b.json in samples: they cannot be compared")
        let options = try? FlameGraphOptions.parse(["--flame-graph", "speedscope"])
        #expect(throws: FlameGraphError.noDifferentialSpeedscope) {
            _ = try options?.renderDifference(SampleResult.classic(), SampleResult.classic(), labels: ("a", "b"))
        }
    }

    @Test func aManifestWithoutStrategiesIsTheManifestsError() {
        let error = ManifestError.noStrategiesListed(manifest: "m.json")
        #expect(error.description == #"m.json: "strategies" lists none to compare (give --strategy NAME)"#)
        #expect(error.file == "m.json")
        #expect(error.reason == #""strategies" lists none to compare (give --strategy NAME)"#)
    }

    @Test func anUnresolvableManifestDirectoryIsTheFileSystemsError() throws {
        let directory = try TemporaryDirectory.make(prefix: "moved-problem")
        defer { TemporaryDirectory.remove(directory) }
        let resolved = try FileIO.absoluteDirectory(of: directory + "/m.json")
        #expect(resolved.hasPrefix("/") && !resolved.contains("//") && resolved.hasSuffix("/" + (directory.split(separator: "/").last.map(String.init) ?? "")))
        let missing = directory + "/gone/m.json"
        #expect(throws: CoreError.system(path: missing, action: "resolve its directory", reason: "No such file or directory")) {
            try FileIO.absoluteDirectory(of: missing)
        }
        #expect(
            CoreError.system(path: missing, action: "resolve its directory", reason: "No such file or directory").description
                == "\(missing): cannot resolve its directory: No such file or directory")
    }
}
