import LaunchCore
import Testing

/// The C, Python and shell examples (Examples/): each runs normally without LAUNCHPROF_FD and reports
/// the same phases with it. (The Swift example: LaunchprofTests. All four under `launchprof exec`:
/// Tests/Integration/clients.sh.)
@Suite struct ExampleTests {
    static let config = ClientProcess.packageRoot + "/Examples/keypad.conf"
    static let phases = ["loading config", "reading file", "parsing", "laying out keys", "drawing"]

    /// The C example, compiled once.
    static let cExample: Result<String, any Error> = Result {
        try CClientTests.compile([ClientProcess.packageRoot + "/Examples/c/keypad.c"])
    }

    static func check(_ program: String, _ arguments: [String]) throws {
        let silent = try ClientProcess.run(program, arguments + [config], launchprofFD: nil)
        #expect(silent.status == 0 && silent.stderr.isEmpty, "\(silent.stderr)")
        #expect(silent.stdout.contains("|   C   |   (   |   )   |   %   |"))
        #expect(silent.output.isEmpty)

        let outcome = try ClientProcess.run(program, arguments + [config])
        #expect(outcome.status == 0 && outcome.stderr.isEmpty, "\(outcome.stderr)")
        #expect(outcome.stdout == silent.stdout)
        let report = try outcome.report()
        #expect(report.phases.map(\.name) == phases)
        #expect(report.phases.map(\.kind) == [.io, .io, .cpu, .cpu, .draw])
        #expect(report.run.marks.map(\.name) == ["first frame", "interactive"])
        #expect(report.run.counters.first?.value == 20)
    }

    @Test(.enabled(if: CClientTests.compiler != nil, "no C compiler: cc is not on PATH"))
    func cExample() throws {
        try Self.check(try Self.cExample.get(), [])
    }

    @Test(.enabled(if: PythonClientTests.python != nil, "python3 is not on PATH"))
    func pythonExample() throws {
        try Self.check(try #require(PythonClientTests.python), [ClientProcess.packageRoot + "/Examples/python/keypad.py"])
    }

    @Test func shellExample() throws {
        try Self.check(ClientProcess.packageRoot + "/Examples/shell/keypad.sh", [])
    }
}
