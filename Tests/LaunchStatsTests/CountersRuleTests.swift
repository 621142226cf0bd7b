import Testing
@testable import LaunchCore
@testable import LaunchStats

/// The counters' rules of `Why it is slow` (busyMachine, coldFaults) on both sides of their
/// thresholds, and budgets on `majorFaults` and `bytesRead` that pass and fail.
@Suite struct CountersRuleTests {
    /// A run of main-thread top-level phases: (name, seconds, seconds waiting for a CPU, major faults, bytes read).
    func run(_ phases: [(String, Double, Double, Int, Int)], thread: Int = 0) -> RunRecord {
        var start = 0.0
        var records: [PhaseRecord] = []
        for (name, seconds, waiting, faults, read) in phases {
            let counters = PhaseCounters(
                cpuTime: seconds - waiting, runnableTime: waiting, minorFaults: 10, majorFaults: faults, bytesRead: read, bytesWritten: 0)
            records.append(PhaseRecord(name: name, kind: .cpu, start: start, duration: seconds, thread: thread, counters: counters))
            start += seconds
        }
        return RunRecord(total: start, phases: records)
    }

    func reason(_ rule: SlowLaunchRule, _ runs: [RunRecord]) -> SlowReason? {
        SlowLaunchDiagnosis.reasons(runs).first { $0.rule == rule.rawValue }
    }

    @Test func aMainThreadPhaseWaitingOver15PercentSaysTheMachineWasBusy() throws {
        let quiet = run([("Init", 0.05, 0.005, 0, 0), ("drawing", 0.05, 0.007, 0, 0)])
        #expect(reason(.busyMachine, [quiet, quiet]) == nil, "10% and 14% of their time: under 15%")
        let busy = run([("Init", 0.05, 0.005, 0, 0), ("drawing", 0.05, 0.02, 0, 0)])
        let found = try #require(reason(.busyMachine, [quiet, busy]))
        #expect(abs(found.value - 0.4) < 1e-9 && found.threshold == 0.15)
        #expect(
            found.message
                == "the machine was busy: this run's times are not trustworthy ('drawing' waited for a CPU 40% of its time on the main thread, over 15%; in 1 of 2 runs): measure again on a quiet machine (launchprof doctor)"
        )
        #expect(SlowLaunchDiagnosis.reasons([quiet, busy]).first?.rule == "busyMachine", "said first: it qualifies every other line")
    }

    @Test func aBusyWorkerOrASliverDoesNotMakeTheMachineBusy() {
        #expect(reason(.busyMachine, [run([("decoding", 0.05, 0.04, 0, 0)], thread: 1)]) == nil, "the main thread's phases only")
        #expect(reason(.busyMachine, [run([("tiny", 0.0005, 0.0004, 0, 0), ("rest", 0.05, 0, 0, 0)])]) == nil, "phases under 1 ms are not judged")
        // Alone it names nowhere to look: no "not worth optimising" beside it.
        #expect(SlowLaunchDiagnosis.reasons([run([("a", 0.05, 0.04, 0, 0), ("b", 0.0001, 0, 0, 0)])]).map(\.rule) == ["busyMachine"])
    }

    @Test func aColdLaunchNamesTheFilesItReadAndThePhaseWithTheMostMajorFaults() throws {
        var cold = run([("loading themes", 0.02, 0, 3, 9000), ("drawing", 0.05, 0, 12, 1000)])
        cold.coldReads = [FileRead(path: "assets/keys.png", bytes: 409_600), FileRead(path: "theme.xml", bytes: 8192)]
        let found = try #require(reason(.coldFaults, [cold, cold]))
        #expect(found.value == 15)
        #expect(
            found.message
                == "a cold launch: 15 major page faults, 10 KiB read; read from storage: assets/keys.png (400 KiB), theme.xml (8 KiB); most major faults in 'drawing' (12): read less at launch (smaller or fewer files, lazy stages), or keep these files warm"
        )
        // A warm launch (no cold reads) says nothing, whatever its faults.
        #expect(reason(.coldFaults, [run([("drawing", 0.05, 0, 12, 1000)])]) == nil)
        // A cold launch that faulted nothing in and read no evicted file back says nothing either.
        var clean = run([("drawing", 0.05, 0, 0, 0)])
        clean.coldReads = []
        #expect(reason(.coldFaults, [clean]) == nil)
    }

    @Test func budgetsOnMajorFaultsAndBytesReadPassAndFail() throws {
        let json = """
            {"majorFaults": {"host": {"drawing": 5, "Total launch time": 100}},
             "bytesRead": {"host": {"loading themes": 10000}}}
            """
        let budget = try Budget(json: Array(json.utf8), file: "b.json")
        let within = run([("loading themes", 0.02, 0, 0, 9000), ("drawing", 0.05, 0, 4, 0)])
        let result = LaunchResult(
            date: "2026-01-01T00:00:00Z", manifest: ManifestInfo(name: "m", path: "m.json", sha256: ""),
            host: HostInfo(cpuModel: "", cores: 1, os: "", architecture: "", swiftVersion: "", hostname: ""), runs: [within, within])
        #expect(budget.violations(in: result).isEmpty)
        let over = run([("loading themes", 0.02, 0, 0, 20000), ("drawing", 0.05, 0, 7, 0)])
        var overResult = result
        overResult.runs = [over, over]
        let violations = budget.violations(in: overResult)
        #expect(violations.map(\.phase) == ["drawing", "loading themes"])
        #expect(violations.map(\.measure) == [.majorFaults, .bytesRead])
        #expect(violations.map(\.time) == [7, 20000])
    }

    @Test func aCounterBudgetMustBeAWholeNumberFromZero() {
        #expect(throws: BudgetError.notACount(file: "b.json", keyPath: "majorFaults.host.drawing", value: -1)) {
            try Budget(json: Array(#"{"majorFaults": {"host": {"drawing": -1}}}"#.utf8), file: "b.json")
        }
        #expect(
            BudgetError.notACount(file: "b.json", keyPath: "bytesRead.host.drawing", value: 1.5).description
                == "b.json: bytesRead.host.drawing: expected a whole number from 0 to 10^15, found 1.5")
        #expect(throws: BudgetError.notACount(file: "b.json", keyPath: "bytesRead.host.drawing", value: 1.5)) {
            try Budget(json: Array(#"{"bytesRead": {"host": {"drawing": 1.5}}}"#.utf8), file: "b.json")
        }
    }

    @Test func aCounterBudgetNamingAnUnknownPhaseIsRefusedByItsKeyPath() {
        let budget = Budget(limits: [:], counterLimits: [.majorFaults: ["host": ["drawnig": 1]]])
        #expect(throws: BudgetError.unknownNames(file: "b.json", [.phase(keyPath: "majorFaults.host.drawnig", hint: "; did you mean drawing?")])) {
            try budget.check(BudgetNames(tiers: ["host"], phases: ["drawing"], complete: true), file: "b.json")
        }
    }
}
