import LaunchCore
import LaunchExport
import LaunchResults
import LaunchManifest
import LaunchRunner
import LaunchStats

/// `check`'s two sides: profiled now (alone against a stored baseline, or interleaved with
/// `--baseline-manifest`), or read from `--result`; in instructions, a few runs a side.
extension CheckPlan {
    /// The candidate tabulated, and whole when it was made now (for `--output`); the baseline when
    /// there is one; the sequential outcome when `--runs auto` chose the runs of an interleaved check.
    typealias SideResults = (TabulatedResult, LaunchResult?, TabulatedResult?, AdaptiveCheck.Outcome?)

    /// Both sides' results, read or measured as the options say (a stored baseline is read by the
    /// table reader, as `diff` reads it: only its description and phase table are needed).
    func results(metric: Metric) throws -> SideResults {
        if metric == .instructions {
            let (candidate, baseline) = try instructionResults()
            return (TabulatedResult(candidate), options.result == nil ? candidate : nil, baseline.map(TabulatedResult.init), nil)
        }
        if let baselineManifest = options.baselineManifest { return try interleavedResults(baselineManifest: baselineManifest) }
        if let result = options.result { return try readResults(candidate: result) }
        return try resultsAgainstStoredBaseline()
    }

    /// `--baseline-manifest`: both manifests profiled now, interleaved (by default until `--runs auto` decides).
    func interleavedResults(baselineManifest: String) throws -> SideResults {
        let a = try AppLaunchPlan(options: options.profile, manifestPath: baselineManifest)
        let b = try AppLaunchPlan(options: options.profile)
        defer { a.cleanUp(); b.cleanUp() }
        let schedule = options.profile.launch.pairSchedule(options.adaptive, try options.thresholds.thresholds(), defaultAuto: true)
        let outcome = try runner.pair(baseline: a, candidate: b, schedule: schedule)
        return (TabulatedResult(outcome.candidate), outcome.candidate, TabulatedResult(outcome.baseline), outcome.sequential)
    }

    /// `--result`: the candidate read, as the baseline is, by the streaming table reader (a result of
    /// thousands of phases and runs is checked without materialising its records), and its baseline.
    func readResults(candidate path: String) throws -> SideResults {
        let candidate: TabulatedResult
        candidate = try ResultTableReader.read(path)
        let baselineResult = try options.baseline.map { reference in
            try options.lookup.loadTable(reference, tier: candidate.header.configuration?.tier?.name, manifest: candidate.header.manifest.name)
        }
        if let baselineResult, let baseline = options.baseline {
            try ResultTarget.requireSame(baseline: baselineResult.header, label: baseline, candidate: ResultTarget(candidate.header), candidateLabel: path)
        }
        return (candidate, nil, baselineResult, nil)
    }

    /// Profiled now against a stored baseline. With --runs auto the candidate gets as many runs as
    /// the baseline has (10 to --max-runs): a stored baseline cannot grow, so there is no
    /// sequential rule to apply, only a fixed-size comparison with enough runs on both sides.
    func resultsAgainstStoredBaseline() throws -> SideResults {
        // The stored baseline is looked up before the profile is set up (a tier's calibration takes a
        // while), so a missing one is reported at once; its manifest is read for its name.
        let manifestName = try? ManifestLoader.load(path: options.profile.manifestPath()).name
        let storedBaseline = try manifestName.flatMap { name in
            try options.baseline.map { try options.lookup.loadTable($0, tier: options.profile.launch.tier, manifest: name) }
        }
        if let manifestName { try requireSameTarget(storedBaseline, manifest: manifestName) }
        var profile = try AppLaunchPlan(options: options.profile)
        let baselineResult =
            try storedBaseline
            ?? options.baseline.map { reference in
                try options.lookup.loadTable(reference, tier: profile.tierInfo?.name, manifest: profile.manifest.name)
            }
        try requireSameTarget(baselineResult, manifest: profile.manifest.name)
        if let baselineResult {
            profile = try reusingCalibration(of: baselineResult, profile)
            // Refused before any run when the baseline was measured elsewhere.
            _ = try environmentCaveats(baseline: baselineResult.header, candidate: profile.result([]))
        }
        let runs = options.profile.launch.runs(againstStored: baselineResult?.table.runCount, maxRuns: options.adaptive.maxRuns, metric: profile.metric)
        defer { profile.cleanUp() }
        let candidate = try runner.run(profile, runs: runs)
        profile.printWarnings(candidate)
        return (TabulatedResult(candidate), candidate, baselineResult, nil)
    }

    /// Like with like, before any run: the built-in app's `manifest` against the stored baseline.
    func requireSameTarget(_ stored: TabulatedResult?, manifest: String) throws {
        guard let stored, let baseline = options.baseline else { return }
        try ResultTarget.requireSame(
            baseline: stored.header, label: baseline, candidate: .app(manifest: manifest), candidateLabel: "the candidate profiled now")
    }

    /// On the baseline's host, its tier factors are reused: both sides stretched alike. `profile`
    /// as it is when the baseline's calibration cannot be reused.
    func reusingCalibration(of baseline: TabulatedResult, _ profile: AppLaunchPlan) throws -> AppLaunchPlan {
        guard let calibration = HostCalibration.reusable(from: baseline.header, for: profile.tierInfo) else { return profile }
        let reused = try AppLaunchPlan(options: options.profile, calibration: calibration)
        if !quiet { StandardError.write("launchprof: using the baseline's calibration (made \(calibration.1.made) on this host)\n") }
        return reused
    }

    /// Both sides measured in instructions: a few runs suffice, because the counts repeat.
    func instructionResults() throws -> (LaunchResult, LaunchResult?) {
        let sides = InstructionSides(runner: runner)
        if let baselineManifest = options.baselineManifest {
            let a = try AppLaunchPlan(options: options.profile, manifestPath: baselineManifest, metric: .instructions, functions: options.functionProfile)
            let b = try AppLaunchPlan(options: options.profile, metric: .instructions, functions: options.functionProfile)
            defer { a.cleanUp(); b.cleanUp() }
            let (candidate, baseline) = try sides.launch(baseline: a, candidate: b)
            return (candidate, baseline)
        }
        if let result = options.result {
            let candidate: LaunchResult
            candidate = try ResultFile.read(result)
            guard candidate.runs.contains(where: { $0.instructions != nil }) else {
                throw InputError.check(.candidateWithoutInstructions(path: result))
            }
            let baselineResult = try options.baseline.map { try options.lookup.load($0, tier: nil, manifest: candidate.manifest.name, metric: .instructions) }
            if let baselineResult, let baseline = options.baseline {
                try ResultTarget.requireSame(baseline: baselineResult, label: baseline, candidate: ResultTarget(candidate), candidateLabel: result)
            }
            return (candidate, baselineResult)
        }
        guard let baseline = options.baseline else { throw InputError.check(.instructionsWithoutBaseline) }
        let b = try AppLaunchPlan(options: options.profile, metric: .instructions, functions: options.functionProfile)
        defer { b.cleanUp() }
        let baselineResult = try options.lookup.load(baseline, tier: nil, manifest: b.manifest.name, metric: .instructions)
        try ResultTarget.requireSame(
            baseline: baselineResult, label: baseline, candidate: b.target.resultTarget, candidateLabel: "the candidate profiled now")
        return (try sides.launch(candidate: b, against: baselineResult, label: baseline), baselineResult)
    }
}
