import Testing
import LaunchCore
@testable import LaunchStats

/// A budget's tiers and phases checked against the names there are, before and after the run.
@Suite struct BudgetNamesTests {
    let tiers = ["host", "iphone-3gs", "iphone-1g"]
    let topLevel = ["Total launch time", "Init", "drawing", "loading images", "Time to interactive"]

    func budget(_ limits: [String: [String: Double]]) -> Budget { Budget(limits: limits) }

    @Test func anUnknownTierAndPhaseAreNamedWithTheClosestKnownName() {
        let names = BudgetNames(tiers: tiers, phases: topLevel, complete: false)
        let expected = BudgetError.unknownNames(
            file: "b.json",
            [
                .tier(keyPath: "budgets.hots", hint: "; did you mean host?", tiers: tiers),
                .phase(keyPath: "budgets.hots.drawnig", hint: "; did you mean drawing?")
            ])
        #expect(throws: expected) { try budget(["hots": ["drawnig": 1]]).check(names, file: "b.json") }
        #expect(
            expected.description
                == "b.json: budgets.hots: no such tier; did you mean host? (tiers: host, iphone-3gs, iphone-1g; a tiers file's with --tiers FILE)\nb.json: budgets.hots.drawnig: no such phase; did you mean drawing?"
        )
    }

    @Test func beforeTheRunSubPhasesAndNamesCloseToNoneWait() throws {
        let names = BudgetNames(tiers: tiers, phases: topLevel, complete: false)
        try budget(["host": ["drawing/keys": 1, "keys": 1, "Init": 1, "Time to interactive": 2]]).check(names, file: "b.json")
    }

    @Test func afterTheRunEveryUnknownNameIsRefused() {
        let names = BudgetNames(tiers: tiers, phases: topLevel + ["drawing/keys", "keys"], complete: true)
        #expect(throws: BudgetError.unknownNames(file: "b.json", [.phase(keyPath: "budgets.host.drawing/backdrop", hint: "")])) {
            try budget(["host": ["drawing/keys": 1, "drawing/backdrop": 1]]).check(names, file: "b.json")
        }
    }

    @Test func theKeysOfATableAreWhatViolationsFind() {
        let table = PhaseTable(
            rows: [
                .init(path: "drawing", name: "drawing", depth: 0, kind: .draw, afterLaunch: false, durations: [0.3]),
                .init(path: "drawing/keys", name: "keys", depth: 1, kind: .draw, afterLaunch: false, durations: [0.2]),
                .init(path: "entering background", name: "entering background", depth: 0, kind: .io, afterLaunch: true, durations: [0.1]),
                .init(path: "entering background/saving", name: "saving", depth: 1, kind: .io, afterLaunch: true, durations: [0.1])
            ], totals: [0.5], hostTotals: [0.5], instructionTotals: [], deferred: [], runCount: 1)
        let keys = Budget.phaseKeys(of: table)
        #expect(Set(keys) == ["Total launch time", "drawing", "drawing/keys", "keys", "entering background", "entering background/saving"])
        // "saving" by its name alone is an after-launch phase: a budget cannot name it so.
        #expect(!keys.contains("saving"))
        #expect(budget(["host": ["keys": 0.1]]).violations(in: table, tier: nil).map(\.phase) == ["keys"])
    }
}
