import LaunchCore
import LaunchExport
import LaunchManifest
import LaunchResults
import LaunchStats
import LaunchTiers

/// `check --budget FILE`, read and checked before anything runs: its tiers against the tier table,
/// its phases against what is known of the candidate's (docs/budgets.md, "Checked before the run").
/// After the run, ``checkAgainst(_:)`` checks the phases again, against the run's own.
struct BudgetInput {
    let path: String
    let budget: Budget
    /// The tiers the file may name: the built-in table's and `--tiers` file's (`host` among them).
    let tableTiers: [String]

    /// Reads the file and checks it against the tier table and `manifests`' phases (top-level: the
    /// built-in app's own and the manifest's stages, and the marks it sends) and `baselines`' phases.
    init(path: String, tiersFile: String?, manifests: [Manifest], baselines: [TabulatedResult]) throws {
        self.path = path
        budget = try Budget.load(path: path)
        tableTiers = try TierTable.load(userFile: tiersFile).tiers.map(\.name)
        let phases = manifests.flatMap(Self.launchPhases) + baselines.flatMap { Budget.phaseKeys(of: $0.table) }
        let tiers = tableTiers + baselines.compactMap { $0.header.configuration?.tier?.name }
        try check(BudgetNames(tiers: Self.unique(tiers), phases: Self.unique(phases), complete: false))
    }

    /// Checks the file against the candidate's phases, all of them now that it has run (or was read),
    /// and the tiers the candidate and baseline ran on.
    func checkAgainst(candidate: TabulatedResult, baseline: TabulatedResult?) throws {
        let sides = [candidate] + (baseline.map { [$0] } ?? [])
        let tiers = tableTiers + sides.compactMap { $0.header.configuration?.tier?.name }
        try check(BudgetNames(tiers: Self.unique(tiers), phases: Self.unique(Budget.phaseKeys(of: candidate.table)), complete: true))
    }

    private func check(_ names: BudgetNames) throws {
        try budget.check(names, file: path)
    }

    /// The top-level phases every launch of `manifest` by the built-in app may have, and its marks'
    /// rows: its stages (lazy ones too, timed by --touch) and the app's own steps around them.
    static func launchPhases(of manifest: Manifest) -> [String] {
        [Comparison.timeTotalName] + manifest.topLevelPhases + manifest.promisedMarks.map(PhaseTable.markRowName)
    }

    private static func unique(_ names: [String]) -> [String] {
        var seen: Set<String> = []
        return names.filter { seen.insert($0).inserted }
    }
}
