import Foundation
import Testing
import LaunchCore
import LaunchExport
import LaunchResults

/// Results that know where they were measured: the calibration cache seen from the command line,
/// and `check` refusing a baseline from another environment unless told to compare anyway.
@Suite(.serialized) struct EnvironmentCLITests {
    /// A tiers file with a calibrated tier whose device is as fast as any host (factors 1), so runs stay quick.
    func tiersFile() throws -> String {
        let path = CLI.temporaryPath("tiers.json")
        try FileIO.writeAtomically(
            #"{"tiers": [{"name": "quick", "referenceSeconds": {"cpu": 1e-9, "io": 1e-9, "decode": 1e-9, "draw": 1e-9}}]}"#, to: path)
        return path
    }

    @Test func theCalibrationIsMeasuredOnceSaidOnceThenReusedAndRecorded() throws {
        let cacheHome = CLI.temporaryPath("xdg")
        defer { FileIO.removeTree(cacheHome) }
        let environment = ["XDG_CACHE_HOME": cacheHome]
        let tiers = try tiersFile(), manifest = try TestManifest.make()
        let a = CLI.temporaryPath("a.json"), b = CLI.temporaryPath("b.json")
        defer { unlink(a); unlink(b); unlink(tiers) }
        let first = try CLI.run(["run", "--manifest", manifest, "--runs", "2", "--tier", "quick", "--tiers", tiers, "--output", a], environment: environment)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.components(separatedBy: "no calibration cached for this host").count == 2, "said once: \(first.stderr)")
        #expect(first.stdout.contains("on a new calibration of 20"), "\(first.stdout)")
        let second = try CLI.run(["run", "--manifest", manifest, "--runs", "2", "--tier", "quick", "--tiers", tiers, "--output", b], environment: environment)
        #expect(second.status == 0)
        #expect(!second.stderr.contains("calibration"), "\(second.stderr)")
        #expect(second.stdout.contains("on the cached calibration of 20"))
        let (ra, rb) = (try ResultFile.read(a), try ResultFile.read(b))
        #expect(ra.configuration?.tier?.calibration?.source == "measured")
        #expect(rb.configuration?.tier?.calibration?.source == "cache")
        #expect(ra.configuration?.tier?.calibration?.made == rb.configuration?.tier?.calibration?.made)
        #expect(ra.configuration?.tier?.hostReference == rb.configuration?.tier?.hostReference, "the same calibration: the same factors")
        #expect(rb.tool.build == "debug")
        let tiersOutput = try CLI.run(["tiers", "--tiers", tiers], environment: environment)
        #expect(tiersOutput.stdout.contains("Calibration: cached, made \(rb.configuration?.tier?.calibration?.made ?? "?") in 10 processes"))
        // Checked now against the stored baseline on the same host: the baseline's calibration is used, and said.
        let check = try CLI.run(
            ["check", "--manifest", manifest, "--runs", "2", "--tier", "quick", "--tiers", tiers, "--baseline", a, "--threshold", "1000", "--min-change", "10"],
            environment: environment)
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stderr.contains("using the baseline's calibration (made \(ra.configuration?.tier?.calibration?.made ?? "?") on this host)"))
    }

    /// `result` with its host's CPU model replaced by `model`, written to a new file.
    func editedHost(_ result: String, model: String) throws -> String {
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: result))) as? [String: Any])
        var host = try #require(object["host"] as? [String: Any])
        host["cpuModel"] = model
        object["host"] = host
        let path = CLI.temporaryPath("edited.json")
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func aBaselineFromAnotherHostIsRefusedUnlessAllowedThenItIsACaveatEverywhere() throws {
        let manifest = try TestManifest.make()
        let result = CLI.temporaryPath("r.json")
        defer { unlink(result) }
        #expect(try CLI.run(["run", "--manifest", manifest, "--runs", "3", "--quiet", "--output", result]).status == 0)
        let edited = try editedHost(result, model: "Edited CPU 9000")
        defer { unlink(edited) }
        let real = try ResultFile.read(result).host.cpuModel
        let refused = try CLI.run(["check", "--result", result, "--baseline", edited])
        #expect(refused.status == 2)
        #expect(
            refused.stderr.contains("\(edited): measured in another environment: the results are from different hosts (CPU model Edited CPU 9000 vs \(real))"),
            "\(refused.stderr)")
        #expect(refused.stderr.contains("--allow-other-environment"))
        #expect(refused.stdout.isEmpty)

        let allowed = try CLI.run(["check", "--result", result, "--baseline", edited, "--allow-other-environment", "--table"])
        #expect(allowed.status == 0, "\(allowed.stderr)")
        let caveat = "the results are from different hosts (CPU model Edited CPU 9000 vs \(real))"
        #expect(allowed.stderr.contains("launchprof: caveat: \(caveat)"))
        #expect(allowed.stdout.hasPrefix("caveat: \(caveat)\n"), "above the verdict: \(allowed.stdout)")
        let json = try CLI.run(["check", "--result", result, "--baseline", edited, "--allow-other-environment", "--format", "json", "--quiet"])
        let document = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(document?["caveats"] as? [String] == [caveat])
        let markdown = try CLI.run(["check", "--result", result, "--baseline", edited, "--allow-other-environment", "--format", "markdown", "--quiet"])
        #expect(markdown.stdout.contains("> :warning: caveat: the results are from different hosts"))
        let junitPath = CLI.temporaryPath("j.xml")
        defer { unlink(junitPath) }
        _ = try CLI.run(["check", "--result", result, "--baseline", edited, "--allow-other-environment", "--junit", junitPath, "--quiet"])
        #expect(try String(contentsOfFile: junitPath, encoding: .utf8).contains("<property name=\"caveat\" value=\"the results are from different hosts"))
        let annotations = try CLI.run(
            ["check", "--result", result, "--baseline", edited, "--allow-other-environment", "--quiet"], environment: ["GITHUB_ACTIONS": "true"])
        #expect(annotations.stdout.contains("::warning title=Launch comparison caveat::the results are from different hosts"))

        // diff compares anyway, with the same caveat.
        let diff = try CLI.run(["diff", edited, result])
        #expect(diff.status == 0)
        #expect(diff.stderr.contains("launchprof: caveat: \(caveat)"))
        #expect(diff.stdout.hasPrefix("caveat: \(caveat)\n"))
    }
}
