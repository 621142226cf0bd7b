import Foundation
import LaunchprofTestSupport
import Testing
@testable import LaunchFuzz

/// Every input a fuzzer ever crashed on (Tests/Fuzz/Regressions/<target>/) and every seed
/// (Tests/Fuzz/Corpus/<target>/) goes through its parser again, each in its own `launchprof-fuzz`
/// replay process so that a crash fails the test instead of killing the test run. Each must give a
/// value or an error that names the input.
///
/// A regression file named `pending-…` crashes inside a dependency whose replacement is under way
/// (Foundation's XMLParser, see the file's note in BENCHMARKS.md): its failure is a known issue until
/// then; rename it (drop `pending-`) once it passes.
@Suite struct FuzzRegressionTests {
    static let fuzzDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()

    /// The replay executable, built beside the test bundle.
    static let replayExecutable = BuiltProducts.executable("launchprof-fuzz")

    static func files(_ kind: String, _ target: FuzzTarget) -> [URL] {
        let directory = fuzzDirectory.appendingPathComponent(kind).appendingPathComponent(target.rawValue)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { directory.appendingPathComponent($0) }
    }

    /// Replays one file; returns the replay's output line, or a description of how it died.
    static func replay(_ target: FuzzTarget, _ file: URL) throws -> (crashed: Bool, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: replayExecutable)
        process.arguments = [target.rawValue, file.path]
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        // Files, not pipes (OutputFiles): another test's child could inherit a pipe's write end.
        let data = try OutputFiles.run(process).stdout
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines)
        if process.terminationReason == .uncaughtSignal { return (true, "killed by signal \(process.terminationStatus)") }
        if process.terminationStatus != 0 { return (true, "exit status \(process.terminationStatus)") }
        return (false, text)
    }

    /// What every error from `target` must mention so the user knows which input was wrong.
    static func namesInput(_ target: FuzzTarget, _ message: String) -> Bool {
        target == .protocol ? message.hasPrefix("protocol line ") : message.contains(target.fileName)
    }

    /// Checks one replayed file; returns whether the parser gave a value.
    @discardableResult
    static func check(_ target: FuzzTarget, _ file: URL) throws -> Bool {
        let label = "\(target.rawValue)/\(file.lastPathComponent)"
        let (crashed, output) = try replay(target, file)
        #expect(!crashed, "\(label): \(output)")
        guard !crashed else { return false }
        let prefix = file.path + ": "
        #expect(output.hasPrefix(prefix), "\(label): unexpected replay output \(output)")
        let outcome = output.dropFirst(prefix.count)
        if outcome.hasPrefix("error: ") {
            #expect(namesInput(target, String(outcome.dropFirst(7))), "\(label): the error does not name the input: \(outcome)")
            return false
        }
        #expect(outcome == "value", "\(label): \(outcome)")
        return true
    }

    @Test func replayExecutableIsBuilt() {
        #expect(FileManager.default.isExecutableFile(atPath: Self.replayExecutable), "\(Self.replayExecutable) (built by swift build)")
    }

    @Test(arguments: FuzzTarget.allCases)
    func regressionInputsGiveAValueOrANamedError(_ target: FuzzTarget) throws {
        for file in Self.files("Regressions", target) {
            if file.lastPathComponent.hasPrefix("pending-") {
                withKnownIssue("crashes in a dependency being replaced", isIntermittent: true) {
                    try Self.check(target, file)
                }
            } else {
                try Self.check(target, file)
            }
        }
    }

    @Test(arguments: FuzzTarget.allCases)
    func seedCorpusIsPresentAndEverySeedGivesAValueOrANamedError(_ target: FuzzTarget) throws {
        let seeds = Self.files("Corpus", target)
        #expect(seeds.count >= 3, "Tests/Fuzz/Corpus/\(target.rawValue) needs seeds")
        var values = 0
        for file in seeds {
            let size = (try? file.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0
            #expect(size <= target.maxLength, "\(target.rawValue)/\(file.lastPathComponent) is longer than -max_len")
            if try Self.check(target, file) { values += 1 }
        }
        // At least one well-formed seed, so the fuzzer starts from inputs that reach deep into the parser.
        #expect(values >= 1, "no seed of \(target.rawValue) parses")
    }

    @Test func protocolCounterOverflowIsALineError() throws {
        let file = Self.fuzzDirectory.appendingPathComponent("Regressions/protocol/count-overflow.txt")
        let (crashed, output) = try Self.replay(.protocol, file)
        #expect(!crashed)
        #expect(output == "\(file.path): error: protocol line 3: counter 'n' overflows a 64-bit integer")
    }
}
