import LaunchCore
import LaunchExport
import LaunchResults
import LaunchManifest
import LaunchRunner
import LaunchStats

/// What `check` reads before it measures: the metric, the budget, and the checks that refuse a
/// baseline of another metric or environment.
extension CheckPlan {
    /// `--metric`, else the candidate result's own, else a baseline file's (a result made with
    /// `--metric instructions` is checked in instructions without being told).
    func metric() throws -> Metric {
        guard options.measure.given == nil, let file = options.result ?? options.baseline.flatMap({ FileIO.exists($0) && !FileIO.isDirectory($0) ? $0 : nil })
        else {
            return options.measure.metric
        }
        return options.measure.metric(of: try ResultTableReader.read(file).header)
    }

    /// A baseline measured in another metric than the candidate is refused: seconds under Valgrind
    /// are not launch times, and instruction counts are not seconds.
    func requireSameMetric(_ candidate: TabulatedResult, _ baseline: TabulatedResult?) throws {
        guard let baseline, options.baselineManifest == nil else { return }
        let a = baseline.header.configuration?.metric ?? .time, b = candidate.header.configuration?.metric ?? .time
        guard a != b else { return }
        throw InputError.check(.metricMismatch(baseline: options.baseline, baselineMetric: a, candidate: options.result, candidateMetric: b))
    }

    /// `--budget`, read and checked before anything runs, against the manifests about to be launched
    /// and the stored baseline (a candidate read from --result is checked whole right after it is read).
    func readBudget(_ path: String) throws -> BudgetInput {
        var manifests: [Manifest] = []
        var baselines: [TabulatedResult] = []
        if options.result == nil {
            // A manifest that cannot be read is reported by the profile, as without --budget.
            for manifestPath in [try? options.profile.manifestPath(), options.baselineManifest].compactMap({ $0 }) {
                if let manifest = try? ManifestLoader.load(path: manifestPath) { manifests.append(manifest) }
            }
            if let baseline = options.baseline, options.baselineManifest == nil, let manifest = manifests.first,
                let table = try? options.lookup.loadTable(baseline, tier: options.profile.launch.tier, manifest: manifest.name)
            {
                baselines.append(table)
            }
        }
        return try BudgetInput(path: path, tiersFile: options.profile.launch.tiers, manifests: manifests, baselines: baselines)
    }

    /// The caveats of comparing `candidate` with the stored `baseline`. A baseline measured in another
    /// environment (``EnvironmentCheck/differences(baseline:candidate:)``) is refused, naming the
    /// difference, unless `--allow-other-environment`; its differences are caveats then.
    func environmentCaveats(baseline: LaunchResult, candidate: LaunchResult) throws -> [String] {
        let differences = EnvironmentCheck.differences(baseline: baseline, candidate: candidate)
        if !differences.isEmpty && !options.allowOtherEnvironment {
            throw InputError.check(.otherEnvironment(baseline: options.baseline, differences: differences))
        }
        return Comparison.caveats(baseline: baseline, candidate: candidate)
    }
}
