import ArgumentParser
import Foundation
import LaunchCore
import LaunchExport
import LaunchManifest
import LaunchRunner
import LaunchStats

/// `launchprof check`: the CI gate. Exit 1 on a real launch regression or a blown budget.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Fail (exit 1) on a statistically real launch regression or a blown budget.",
        discussion: """
            The candidate is --result FILE, or a profile made now with the run options. It is compared with --baseline (a result file or a git revision in the results store) and/or checked against --budget FILE. A phase or the total has regressed when Mann-Whitney U finds the change significant (alpha 0.01) and it is larger than the threshold (5% and 2 ms by default). An improvement never fails the check.

            The baseline must have measured the same target: the built-in app on the same manifest, or the same program (its command line or --name); another is refused (exit 2). Two results made with --metric instructions (run, record or exec) are compared in instructions without --metric.

            --baseline-manifest M runs the baseline manifest and the candidate alternately (A B B A …) in one invocation, so both see the same machine state: use it when the baseline can be launched now (another build's manifest, a strategy switched off), on noisy shared machines.

            With GITHUB_ACTIONS set, regressions become ::error annotations and the markdown table is appended to $GITHUB_STEP_SUMMARY.

            Examples:
              launchprof check --baseline main
              # with the phase-by-phase table
              launchprof check --baseline main --table
              launchprof check --result pr.json --baseline main.json --format markdown
              # a program: exec --metric instructions --output head.json -- ./my-app, on each side
              launchprof check --result head.json --baseline base.json
              launchprof check --budget budgets.json --tier iphone-3gs
              launchprof check --baseline-manifest base.json --manifest pr.json --junit l.xml
            """
    )

    @Option(name: .long, help: ArgumentHelp("The candidate result; without it, the candidate is profiled now.", valueName: "file"))
    var result: String?

    @Option(name: .long, help: ArgumentHelp("The baseline: a result file or a git revision.", valueName: "file|revision"))
    var baseline: String?

    @Option(
        name: .customLong("baseline-manifest"), help: ArgumentHelp("Profile this manifest as the baseline, interleaved with the candidate.", valueName: "path"))
    var baselineManifest: String?

    @Option(name: .long, help: ArgumentHelp("A budget file: per tier, per phase maximum seconds.", valueName: "file"))
    var budget: String?

    @Option(name: .long, help: "Output format: \(OutputFormat.Subject.comparison.list) (default: text).", transform: OutputFormat.argument(.comparison))
    var format: OutputFormat = .text

    @Flag(name: .long, help: "With --format text, also print the comparison table (by default: one line, or the failures).")
    var table = false

    @Option(name: .long, help: ArgumentHelp("Also write JUnit XML (one test case per phase) here.", valueName: "file"))
    var junit: String?

    @Option(name: .long, help: ArgumentHelp("Also write the candidate's result document here.", valueName: "file"))
    var output: String?

    @Flag(
        name: .customLong("allow-other-environment"),
        help:
            "Compare with a stored baseline measured on another host, tier, metric or reference version anyway: the differences become caveats above the verdict and in every export (by default such a baseline is refused, exit 2)."
    )
    var allowOtherEnvironment = false

    @OptionGroup var profile: ProfileOptions
    @OptionGroup var measure: MetricOptions
    @OptionGroup var functionProfile: FunctionOptions
    @OptionGroup var adaptive: AdaptiveOptions
    @OptionGroup var lookup: StoreLookupOptions
    @OptionGroup var thresholds: ThresholdOptions
    @OptionGroup var decimals: PrecisionOption

    func validate() throws {
        try profile.launch.requireOneTier()
        if budget == nil { try profile.launch.requireTierForTiersFile() }
        guard baseline != nil || baselineManifest != nil || budget != nil else {
            throw ValidationError("nothing to check against: give --baseline, --baseline-manifest or --budget")
        }
        guard baseline == nil || baselineManifest == nil else {
            throw ValidationError("give --baseline or --baseline-manifest, not both")
        }
        if measure.metric == .instructions, budget != nil {
            throw ValidationError("--budget limits seconds and cannot be checked with --metric instructions (run a second check for the budget)")
        }
        guard result == nil || baselineManifest == nil else {
            throw ValidationError("--baseline-manifest profiles both sides now; it cannot take --result")
        }
    }

    /// `--metric`, else the candidate result's own, else a baseline file's (a result made with
    /// `--metric instructions` is checked in instructions without being told).
    private func metric() throws -> Metric {
        guard measure.given == nil, let file = result ?? baseline.flatMap({ FileIO.exists($0) && !FileIO.isDirectory($0) ? $0 : nil }) else {
            return measure.metric
        }
        do { return measure.metric(of: try ResultTableReader.read(file).header) } catch { throw InputError(error) }
    }

    /// A baseline measured in another metric than the candidate is refused: seconds under Valgrind
    /// are not launch times, and instruction counts are not seconds.
    private func requireSameMetric(_ candidate: TabulatedResult, _ baseline: TabulatedResult?) throws {
        guard let baseline, baselineManifest == nil else { return }
        let a = baseline.header.configuration?.metric ?? .time, b = candidate.header.configuration?.metric ?? .time
        guard a != b else { return }
        throw InputError(
            "\(self.baseline ?? "the baseline") was measured in \(a.rawValue), but \(result ?? "the candidate") in \(b.rawValue): compare results of one metric (make both with or both without --metric instructions)"
        )
    }

    /// The runner of this command's plans: real processes, progress on a terminal unless `--quiet`.
    private var runner: PlanRunner { PlanRunner(quiet: quiet) }

    /// What `--quiet` asked for.
    private var quiet: Bool { profile.launch.quiet }

    func run() throws {
        try OutputPath.check(output, option: "--output")
        try OutputPath.check(junit, option: "--junit")
        let metric = try self.metric()
        try functionProfile.require(metric)
        if metric == .instructions, budget != nil {
            throw InputError(
                "--budget limits seconds, and \(result ?? "the candidate") holds instruction counts: run a second check for the budget on a timed result")
        }
        let budgetInput = try budget.map(readBudget)
        let (candidate, madeNow, baselineResult, sequential) = try results(metric: metric)
        try requireSameMetric(candidate, baselineResult)
        try budgetInput?.checkAgainst(candidate: candidate, baseline: baselineResult)
        // An empty side is an input error, never a pass.
        if candidate.table.runCount == 0 { throw InputError("\(result ?? profile.manifest ?? "the candidate"): the result has no runs to check") }
        if let baselineResult, baselineResult.table.runCount == 0 {
            throw InputError("\(baseline ?? baselineManifest ?? "the baseline"): the baseline result has no runs to compare with")
        }
        var caveats: [String] = []
        if let baselineResult, baselineManifest == nil {
            caveats = try environmentCaveats(baseline: baselineResult.header, candidate: candidate.header)
            if !quiet { for caveat in caveats { StandardError.write("launchprof: caveat: \(caveat)\n") } }
        }
        // A side whose machine was busy (docs/why-slow.md, busyMachine): its times are not to be trusted.
        let busy = BusyMachineCaveat.caveats(baseline: baselineResult?.header, candidate: candidate.header)
        if !quiet { for caveat in busy { StandardError.write("launchprof: caveat: \(caveat)\n") } }
        caveats += busy
        if let output {
            do {
                if let madeNow {
                    try ResultFile.write(madeNow, to: output)
                }
                // A candidate read from --result is copied as it is.
                else if let result {
                    try FileIO.writeAtomically(try FileIO.read(result, limit: .result), to: output)
                }
            } catch { throw InputError(error) }
        }

        let violations = budgetInput?.budget.violations(in: candidate.table, tier: candidate.header.configuration?.tier?.name) ?? []
        // Without a baseline (a budget check only), the candidate against itself gives the phase rows
        // the JUnit report lists.
        let candidateTable = candidate.table
        let comparison =
            try sequential?.comparison
            ?? Comparison(
                baseline: baselineResult?.table ?? candidateTable, candidate: candidateTable, thresholds: try thresholds.thresholds(),
                paired: baselineManifest != nil && metric == .time, metric: metric)
        var context = ComparisonContext(
            baselineLabel: baseline ?? baselineManifest ?? "budget", candidateLabel: result ?? profile.manifest ?? "candidate",
            precision: decimals.precision, violations: violations, caveats: caveats)
        context.functionChanges = FunctionReport.changes(
            comparison, baseline: baselineResult?.header.functions, candidate: candidate.header.functions, top: functionProfile.top)
        let regressions = baselineResult == nil ? [] : comparison.regressions

        if let junit {
            do { try FileIO.writeAtomically(JUnitReport().render(comparison, context: context), to: junit) } catch { throw InputError(error) }
        }
        let environment = ProcessInfo.processInfo.environment
        if environment["GITHUB_ACTIONS"] == "true" || environment["GITHUB_ACTIONS"] == "1" {
            // Workflow commands are read from both streams: stdout keeps only the document of a
            // machine format.
            let annotations = GitHubAnnotations().render(comparison, context: context)
            if format == .text { print(annotations, terminator: "") } else { StandardError.write(annotations) }
            if let summary = environment["GITHUB_STEP_SUMMARY"], !summary.isEmpty {
                do { try FileIO.append(ComparisonMarkdown().render(comparison, context: context) + "\n", to: summary) } catch { throw InputError(error) }
            }
        }
        if format == .text {
            // Regressions and blown budgets are named on stderr below; the table shows the rows.
            if baselineResult != nil && table {
                var table = context
                table.violations = []
                print(ComparisonTextTable().render(comparison, context: table), terminator: "")
            }
        } else if let exporter = format.comparisonExporter {
            do { print(try exporter.render(comparison, context: context), terminator: "") } catch { throw InputError(error) }
        }

        let p = decimals.precision
        for row in regressions { StandardError.write("launchprof: regression in \(ComparisonWording.regression(row, p))\n") }
        // The functions that changed each changed phase (both sides with --functions), unless the table named them.
        if format == .text && !(baselineResult != nil && table) {
            for line in FunctionReport.attributionLines(comparison, context) { StandardError.write("launchprof: functions: \(line)\n") }
        }
        for v in violations { StandardError.write("launchprof: over budget: \(ComparisonWording.violation(v, p))\n") }
        // --store (or LAUNCHPROF_STORE): what the history says that two commits cannot.
        if !quiet, lookup.history.store != nil {
            let tier = candidate.header.configuration?.tier?.name ?? "host"
            for note in try HistoryDrift.notes(lookup.history, target: candidate.header.manifest.name, tier: tier, metric: metric) {
                StandardError.write("launchprof: drift: \(note)\n")
            }
        }
        // Dirty memory kept in the background, against the tier's budget (the app is killed first when memory runs short).
        var overBackgroundMemory = false
        if let tier = candidate.header.configuration?.tier, let limit = tier.backgroundMemory,
            let dirty = Summary(candidate.dirtyBytesAfterBackground.map(Double.init))?.median,
            dirty > Double(limit)
        {
            StandardError.write(
                "launchprof: over budget: dirty memory in the background on \(tier.name) is \(MemoryFormat.mebibytes(dirty)), budget \(MemoryFormat.mebibytes(Double(limit))) (try releaseCachesOnBackground)\n"
            )
            overBackgroundMemory = true
        }
        // A tap lost during the launch is a regression of its own: the user's input went nowhere.
        let lostTaps = candidate.tapsLost
        if lostTaps > 0 {
            StandardError.write(
                "launchprof: \(lostTaps) tap\(lostTaps == 1 ? "" : "s") lost during the launch (made before the app was interactive, without queueInputDuringLaunch)\n"
            )
        }
        // The sequential rule decides the launch's phases and marks; after-launch work (the background
        // step, first uses) keeps its fixed-sample verdict and is not waited for.
        let afterLaunch = Set(candidateTable.rows.filter(\.afterLaunch).map(\.path))
        let undecided = sequential == nil ? [] : (comparison.rows + [comparison.total]).filter { $0.verdict == .inconclusive && !afterLaunch.contains($0.path) }
        if !quiet || adaptive.failOnInconclusive {
            for row in undecided { StandardError.write("launchprof: \(PlainText.quoted(row.path)) \(ComparisonWording.verdict(row))\n") }
        }
        if !regressions.isEmpty || !violations.isEmpty || lostTaps > 0 || overBackgroundMemory || (adaptive.failOnInconclusive && !undecided.isEmpty) {
            throw ExitCode(ExitStatus.regression)
        }
        var line = "launchprof check: passed"
        if baselineResult != nil {
            let t = comparison.total, m = comparison.metric
            let unit = m == .instructions ? "instructions " : ""
            line +=
                ": no launch regression (total \(unit)\(ComparisonWording.quantity(t.baselineMedian, m, p)) → \(ComparisonWording.quantity(t.candidateMedian, m, p)), \(ComparisonWording.percent(t.changePercent)), \(ComparisonWording.verdict(t)))"
        }
        if budget != nil { line += baselineResult == nil ? ": within budget" : "; within budget" }
        if let sequential { line += "; \(sequential.pairs) runs a side (--runs auto)" }
        // With --format json or markdown stdout is the document alone (a parser reads it whole).
        if format == .text { print(line) } else if !quiet { StandardError.write(line + "\n") }
    }

    /// `--budget`, read and checked before anything runs, against the manifests about to be launched
    /// and the stored baseline (a candidate read from --result is checked whole right after it is read).
    private func readBudget(_ path: String) throws -> BudgetInput {
        var manifests: [Manifest] = []
        var baselines: [TabulatedResult] = []
        if result == nil {
            // A manifest that cannot be read is reported by the profile, as without --budget.
            for manifestPath in [try? profile.manifestPath(), baselineManifest].compactMap({ $0 }) {
                if let manifest = try? ManifestLoader.load(path: manifestPath) { manifests.append(manifest) }
            }
            if let baseline, baselineManifest == nil, let manifest = manifests.first,
                let table = try? lookup.loadTable(baseline, tier: profile.launch.tier, manifest: manifest.name)
            {
                baselines.append(table)
            }
        }
        return try BudgetInput(path: path, tiersFile: profile.launch.tiers, manifests: manifests, baselines: baselines)
    }

    /// The candidate, the baseline when there is one (a stored baseline read by the table reader, as
    /// `diff` reads it: only its description and phase table are needed), and the sequential
    /// comparison when `--runs auto` chose the runs of an interleaved check.
    /// The candidate tabulated, and whole when it was made now (for `--output`); the baseline; the
    /// sequential outcome.
    private func results(metric: Metric) throws -> (TabulatedResult, LaunchResult?, TabulatedResult?, AdaptiveCheck.Outcome?) {
        if metric == .instructions {
            let (candidate, baseline) = try instructionResults()
            return (TabulatedResult(candidate), result == nil ? candidate : nil, baseline.map(TabulatedResult.init), nil)
        }
        if let baselineManifest {
            let a = try AppLaunchPlan(options: profile, manifestPath: baselineManifest)
            let b = try AppLaunchPlan(options: profile)
            defer { a.cleanUp(); b.cleanUp() }
            let schedule = profile.launch.pairSchedule(adaptive, try thresholds.thresholds(), defaultAuto: true)
            let outcome = try runner.pair(baseline: a, candidate: b, schedule: schedule)
            return (TabulatedResult(outcome.candidate), outcome.candidate, TabulatedResult(outcome.baseline), outcome.sequential)
        }
        if let result {
            // Read as the baseline is, by the streaming table reader: a result of thousands of phases
            // and runs is checked without materialising its records.
            let candidate: TabulatedResult
            do { candidate = try ResultTableReader.read(result) } catch { throw InputError(error) }
            let baselineResult = try baseline.map { reference in
                try lookup.loadTable(reference, tier: candidate.header.configuration?.tier?.name, manifest: candidate.header.manifest.name)
            }
            if let baselineResult, let baseline {
                try ResultTarget.requireSame(
                    baseline: baselineResult.header, label: baseline, candidate: ResultTarget(candidate.header), candidateLabel: result)
            }
            return (candidate, nil, baselineResult, nil)
        }
        // Profiled now against a stored baseline. With --runs auto the candidate gets as many runs as
        // the baseline has (10 to --max-runs): a stored baseline cannot grow, so there is no
        // sequential rule to apply, only a fixed-size comparison with enough runs on both sides.
        // The stored baseline is looked up before the profile is set up (a tier's calibration takes a
        // while), so a missing one is reported at once; its manifest is read for its name.
        let manifestName = try? ManifestLoader.load(path: self.profile.manifestPath()).name
        let storedBaseline = try manifestName.flatMap { name in try baseline.map { try lookup.loadTable($0, tier: self.profile.launch.tier, manifest: name) } }
        // Like with like, before any run: the built-in app against this baseline.
        func requireSameTarget(_ stored: TabulatedResult?, manifest: String) throws {
            guard let stored, let baseline else { return }
            try ResultTarget.requireSame(
                baseline: stored.header, label: baseline, candidate: .app(manifest: manifest), candidateLabel: "the candidate profiled now")
        }
        if let manifestName { try requireSameTarget(storedBaseline, manifest: manifestName) }
        var profile = try AppLaunchPlan(options: self.profile)
        let baselineResult =
            try storedBaseline
            ?? baseline.map { reference in
                try lookup.loadTable(reference, tier: profile.tierInfo?.name, manifest: profile.manifest.name)
            }
        try requireSameTarget(baselineResult, manifest: profile.manifest.name)
        if let baselineResult {
            // On the baseline's host, its tier factors are reused: both sides stretched alike.
            if let calibration = HostCalibration.reusable(from: baselineResult.header, for: profile.tierInfo) {
                profile = try AppLaunchPlan(options: self.profile, calibration: calibration)
                if !quiet {
                    StandardError.write("launchprof: using the baseline's calibration (made \(calibration.1.made) on this host)\n")
                }
            }
            // Refused before any run when the baseline was measured elsewhere.
            _ = try environmentCaveats(baseline: baselineResult.header, candidate: profile.result([]))
        }
        let runs = self.profile.launch.runs(againstStored: baselineResult?.table.runCount, maxRuns: adaptive.maxRuns, metric: profile.metric)
        defer { profile.cleanUp() }
        let candidate = try runner.run(profile, runs: runs)
        profile.printWarnings(candidate)
        return (TabulatedResult(candidate), candidate, baselineResult, nil)
    }

    /// The caveats of comparing `candidate` with the stored `baseline`. A baseline measured in another
    /// environment (``EnvironmentCheck/differences(baseline:candidate:)``) is refused, naming the
    /// difference, unless `--allow-other-environment`; its differences are caveats then.
    private func environmentCaveats(baseline: LaunchResult, candidate: LaunchResult) throws -> [String] {
        let differences = EnvironmentCheck.differences(baseline: baseline, candidate: candidate)
        if !differences.isEmpty && !allowOtherEnvironment {
            throw InputError(
                "\(self.baseline ?? "the baseline"): measured in another environment: \(differences.joined(separator: "; ")) (record the baseline here, or pass --allow-other-environment to compare anyway, with caveats)"
            )
        }
        return Comparison.caveats(baseline: baseline, candidate: candidate)
    }

    /// Both sides measured in instructions: a few runs suffice, because the counts repeat.
    private func instructionResults() throws -> (LaunchResult, LaunchResult?) {
        let sides = InstructionSides(runner: runner)
        if let baselineManifest {
            let a = try AppLaunchPlan(options: profile, manifestPath: baselineManifest, metric: .instructions, functions: functionProfile)
            let b = try AppLaunchPlan(options: profile, metric: .instructions, functions: functionProfile)
            defer { a.cleanUp(); b.cleanUp() }
            let (candidate, baseline) = try sides.launch(baseline: a, candidate: b)
            return (candidate, baseline)
        }
        if let result {
            let candidate: LaunchResult
            do { candidate = try ResultFile.read(result) } catch { throw InputError(error) }
            guard candidate.runs.contains(where: { $0.instructions != nil }) else {
                throw InputError("\(result): the candidate has no instruction counts: make it with --metric instructions")
            }
            let baselineResult = try baseline.map { try lookup.load($0, tier: nil, manifest: candidate.manifest.name, metric: .instructions) }
            if let baselineResult, let baseline {
                try ResultTarget.requireSame(baseline: baselineResult, label: baseline, candidate: ResultTarget(candidate), candidateLabel: result)
            }
            return (candidate, baselineResult)
        }
        guard let baseline else { throw InputError("--metric instructions needs a baseline: --baseline or --baseline-manifest") }
        let b = try AppLaunchPlan(options: profile, metric: .instructions, functions: functionProfile)
        defer { b.cleanUp() }
        let baselineResult = try lookup.load(baseline, tier: nil, manifest: b.manifest.name, metric: .instructions)
        try ResultTarget.requireSame(
            baseline: baselineResult, label: baseline, candidate: b.target.resultTarget, candidateLabel: "the candidate profiled now")
        return (try sides.launch(candidate: b, against: baselineResult, label: baseline), baselineResult)
    }
}
