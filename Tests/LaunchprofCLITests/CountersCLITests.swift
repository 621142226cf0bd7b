import Foundation
import LaunchCore
import LaunchExport
import LaunchResults
import Testing

/// `--counters` end to end (docs/counters.md): the report's counters, budgets on `majorFaults` and
/// `bytesRead` that pass and fail, and `exec`'s whole-process counters. Nothing here depends on the
/// machine's load: every assertion is about what a launch reads or whether a counter is there.
@Suite struct CountersCLITests {
    static let on = [AppInterface.countersVariable: "1"]

    @Test func runPrintsEachPhasesCountersAndTheResultKeepsThem() throws {
        let output = CLI.temporaryPath("counters.json")
        defer { unlink(output) }
        let outcome = try CLI.run(["run", "--runs", "1", "--warmup", "0", "--counters", "--all-phases", "--output", output], environment: Self.on)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let line = try #require(outcome.stdout.split(separator: "\n").first { $0.hasPrefix("Time for reading manifest:") })
        #expect(line.contains("  [cpu "), "\(line)")
        #expect(line.contains(" major; switches "), "\(line)")
        let total = try #require(outcome.stdout.split(separator: "\n").first { $0.hasPrefix("Total launch time:") })
        #expect(total.contains("  [cpu "), "\(total)")
        let result = try ResultFile.read(output)
        let phase = try #require(result.runs[0].phases.first { $0.name == "reading manifest" })
        let counters = try #require(phase.counters)
        #expect(try #require(counters.bytesRead) > 0, "reading the manifest reads its bytes")
        // Without --counters the report has none, and with LAUNCHPROF_COUNTERS=0 the app records none.
        let plain = try CLI.run(["report", output])
        #expect(!plain.stdout.contains("[cpu "))
        #expect(try CLI.run(["report", output, "--counters"]).stdout.contains("[cpu "))
    }

    @Test func budgetsOnBytesReadAndMajorFaultsPassAndFail() throws {
        let budgets = CLI.temporaryPath("budgets.json")
        defer { unlink(budgets) }
        // The manifest is read whole at launch: over a 1-byte budget; 10^15 bytes and faults are never reached.
        try FileIO.writeAtomically(
            #"{"bytesRead": {"host": {"reading manifest": 1}}, "majorFaults": {"host": {"Total launch time": 1000000000000000}}}"#, to: budgets)
        let over = try CLI.run(["check", "--budget", budgets, "--runs", "1", "--warmup", "0", "--quiet"], environment: Self.on)
        #expect(over.status == 1, "\(over.stdout)\(over.stderr)")
        #expect(over.stderr.contains(#/launchprof: over budget: 'reading manifest' on host read \d+ bytes, budget 1/#), "\(over.stderr)")
        #expect(!over.stderr.contains("major page faults"))
        try FileIO.writeAtomically(#"{"bytesRead": {"host": {"reading manifest": 1000000000000000}}}"#, to: budgets)
        let within = try CLI.run(["check", "--budget", budgets, "--runs", "1", "--warmup", "0", "--quiet"], environment: Self.on)
        #expect(within.status == 0, "\(within.stdout)\(within.stderr)")
        #expect(!within.stderr.contains("over budget"))
    }

    @Test func aBudgetOnACounterWithATypoIsRefusedBeforeTheRun() throws {
        let budgets = CLI.temporaryPath("budgets.json")
        defer { unlink(budgets) }
        try FileIO.writeAtomically(#"{"majorFaults": {"host": {"drawnig": 0}}}"#, to: budgets)
        let outcome = try CLI.run(["check", "--budget", budgets, "--runs", "1"], environment: Self.on)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("majorFaults.host.drawnig: no such phase; did you mean drawing?"), "\(outcome.stderr)")
    }

    @Test func execWithoutAClientPrintsTheWholeProcesssCounters() throws {
        let outcome = try CLI.run(["exec", "--runs", "1", "--warmup", "0", "--counters", "--", "/bin/cat", "/etc/hostname"], environment: Self.on)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let total = try #require(outcome.stdout.split(separator: "\n").first { $0.hasPrefix("Total launch time:") })
        #expect(total.contains("[cpu "), "\(total)")
        #expect(total.contains(" read "), "bytes read from /proc/<pid>/io: \(total)")
        #expect(!total.contains("waiting"), "a whole process's wait for a CPU is not known: left out, not 0")
    }
}
