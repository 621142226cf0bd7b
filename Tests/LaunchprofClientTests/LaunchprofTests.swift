import Glibc
import LaunchCore
import LaunchprofTestSupport
import LaunchprofClient
import Testing

/// The public API: in this process (where LAUNCHPROF_FD is unset, so every call is a no-op), and in
/// the Swift example, `launchprof-example-swift`, run as `launchprof exec` runs a program.
@Suite struct LaunchprofTests {
    struct Failure: Error, Equatable {}

    static let example = BuiltProducts.executable("launchprof-example-swift")
    static let config = ClientProcess.packageRoot + "/Examples/keypad.conf"

    @Test func withoutTheVariableEveryCallIsANoOpThatStillRunsTheBody() throws {
        try #require(getenv("LAUNCHPROF_FD") == nil, "the test process is not run under launchprof exec")
        Launchprof.start()
        #expect(!Launchprof.isActive)
        #expect(Launchprof.phase("computing") { 6 * 7 } == 42)
        #expect(throws: Failure.self) { try Launchprof.phase("failing", kind: .io) { () throws(Failure) in throw Failure() } }
        Launchprof.begin("x")
        Launchprof.mark("m")
        Launchprof.count(1, "c")
        Launchprof.end("x")
        Launchprof.done()
        #expect(!Launchprof.isActive)
    }

    @Test func theExampleReportsItsPhases() throws {
        let outcome = try ClientProcess.run(Self.example, [Self.config])
        #expect(outcome.status == 0 && outcome.stderr.isEmpty, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("|   7   |   8   |   9   |   /   |"))
        let report = try outcome.report()
        #expect(report.run.phases.first?.name == ProtocolParser.processStartPhase)
        #expect(report.phases.map(\.name) == ["loading config", "reading file", "parsing", "laying out keys", "drawing"])
        #expect(report.phases.map(\.kind) == [.io, .io, .cpu, .cpu, .draw])
        #expect(report.run.marks.map(\.name) == ["first frame", "interactive"])
        #expect(report.run.counters.map(\.name) == ["keys laid out"] && report.run.counters.first?.value == 20)
    }

    @Test(arguments: UnusableDescriptors.values)
    func theExampleRunsNormallyWithAnUnusableVariable(value: String?) throws {
        let outcome = try ClientProcess.run(Self.example, [Self.config], launchprofFD: value)
        #expect(outcome.status == 0 && outcome.stderr.isEmpty, "LAUNCHPROF_FD=\(value ?? "unset"): \(outcome.stderr)")
        #expect(outcome.stdout.contains("|   0   |   .   |   =   |   +   |"))
        #expect(outcome.output.isEmpty)
    }

    @Test func theExampleOutlivesABrokenPipe() throws {
        let outcome = try ClientProcess.run(Self.example, [Self.config], descriptor: .brokenPipe)
        #expect(outcome.status == 0, "killed? status \(outcome.status): \(outcome.stderr)")
        #expect(outcome.stdout.contains("|   0   |   .   |   =   |   +   |"))
    }
}
