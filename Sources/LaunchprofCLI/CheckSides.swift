import LaunchCore
import LaunchExport
import LaunchResults
import LaunchManifest
import LaunchRunner
import LaunchStats

/// `check`'s two sides: profiled now (alone against a stored baseline, or interleaved with
/// `--baseline-manifest`), or read from `--result`; in instructions, a few runs a side.
extension CheckPlan {
    /// The candidate, the baseline when there is one (a stored baseline read by the table reader, as
    /// `diff` reads it: only its description and phase table are needed), and the sequential
    /// comparison when `--runs auto` chose the runs of an interleaved check.
    /// The candidate tabulated, and whole when it was made now (for `--output`); the baseline; the
    /// sequential outcome.
    func results(metric: Metric) throws -> (TabulatedResult, LaunchResult?, TabulatedResult?, AdaptiveCheck.Outcome?) {
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
            candidate = try ResultTableReader.read(result)
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

    /// Both sides measured in instructions: a few runs suffice, because the counts repeat.
    func instructionResults() throws -> (LaunchResult, LaunchResult?) {
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
            candidate = try ResultFile.read(result)
            guard candidate.runs.contains(where: { $0.instructions != nil }) else {
                throw InputError.check(.candidateWithoutInstructions(path: result))
            }
            let baselineResult = try baseline.map { try lookup.load($0, tier: nil, manifest: candidate.manifest.name, metric: .instructions) }
            if let baselineResult, let baseline {
                try ResultTarget.requireSame(baseline: baselineResult, label: baseline, candidate: ResultTarget(candidate), candidateLabel: result)
            }
            return (candidate, baselineResult)
        }
        guard let baseline else { throw InputError.check(.instructionsWithoutBaseline) }
        let b = try AppLaunchPlan(options: profile, metric: .instructions, functions: functionProfile)
        defer { b.cleanUp() }
        let baselineResult = try lookup.load(baseline, tier: nil, manifest: b.manifest.name, metric: .instructions)
        try ResultTarget.requireSame(
            baseline: baselineResult, label: baseline, candidate: b.target.resultTarget, candidateLabel: "the candidate profiled now")
        return (try sides.launch(candidate: b, against: baselineResult, label: baseline), baselineResult)
    }
}
