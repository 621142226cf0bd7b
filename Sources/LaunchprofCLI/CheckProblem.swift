import LaunchCore

/// Two sides that cannot be compared (`check`, `diff`), refused before a verdict: each
/// case carries the facts (the sides as the user named them, the metrics, the differences), worded
/// by ``description``.
enum CheckProblem: Equatable, CustomStringConvertible {
    /// `--budget` (seconds) with a candidate of instruction counts (`candidate`: `--result`, or `nil`).
    case budgetOnInstructions(candidate: String?)
    /// `diff`: a result (`label`) with no runs.
    case noRunsToCompare(label: String)
    /// `diff --metric instructions`: a result (`label`) with no instruction counts.
    case resultWithoutInstructions(label: String)
    /// A stored baseline (`label`) with no instruction counts, for `--metric instructions`.
    case baselineWithoutInstructions(label: String)
    /// The candidate (`label`) has no runs.
    case noCandidateRuns(label: String)
    /// The baseline (`label`) has no runs.
    case noBaselineRuns(label: String)
    /// `--metric instructions` with a candidate result (`path`) that holds no instruction counts.
    case candidateWithoutInstructions(path: String)
    /// `--metric instructions` with neither `--baseline` nor `--baseline-manifest`.
    case instructionsWithoutBaseline
    /// The baseline (`baseline`, or `nil`: the stored one) measured in `baselineMetric`, the candidate in another.
    case metricMismatch(baseline: String?, baselineMetric: Metric, candidate: String?, candidateMetric: Metric)
    /// The baseline (`baseline`, or `nil`) measured in another environment: its `differences`.
    case otherEnvironment(baseline: String?, differences: [String])
    /// The baseline (`label`) measured another target than the candidate (`candidateLabel`): another
    /// program, the app against a program, or another manifest. `command` is the baseline program's
    /// command line, when it is one, and `metric` the baseline's, for the hint.
    case otherTarget(baseline: ResultTarget, label: String, candidate: ResultTarget, candidateLabel: String, command: String?, metric: Metric)

    var description: String {
        switch self {
        case .budgetOnInstructions(let candidate):
            return "--budget limits seconds, and \(candidate ?? "the candidate") holds instruction counts: run a second check for the budget on a timed result"
        case .noRunsToCompare(let label):
            return "\(label): the result has no runs to compare"
        case .resultWithoutInstructions(let label):
            return "\(label): the result has no instruction counts: make it with --metric instructions"
        case .baselineWithoutInstructions(let label):
            return "\(label): the baseline has no instruction counts: record it with --metric instructions"
        case .noCandidateRuns(let label):
            return "\(label): the result has no runs to check"
        case .noBaselineRuns(let label):
            return "\(label): the baseline result has no runs to compare with"
        case .candidateWithoutInstructions(let path):
            return "\(path): the candidate has no instruction counts: make it with --metric instructions"
        case .instructionsWithoutBaseline:
            return "--metric instructions needs a baseline: --baseline or --baseline-manifest"
        case .metricMismatch(let baseline, let a, let candidate, let b):
            return
                "\(baseline ?? "the baseline") was measured in \(a.rawValue), but \(candidate ?? "the candidate") in \(b.rawValue): compare results of one metric (make both with or both without --metric instructions)"
        case .otherEnvironment(let baseline, let differences):
            return
                "\(baseline ?? "the baseline"): measured in another environment: \(differences.joined(separator: "; ")) (record the baseline here, or pass --allow-other-environment to compare anyway, with caveats)"
        case .otherTarget(let a, let label, let b, let candidateLabel, let command, let metric):
            return
                "\(label) measured \(a.description), but \(candidateLabel) is \(b.description): the comparison would mean nothing (\(Self.hint(a, b, command: command, metric: metric)))"
        }
    }

    /// What to do when the baseline measured `a` and the candidate `b`.
    private static func hint(_ a: ResultTarget, _ b: ResultTarget, command: String?, metric: Metric) -> String {
        switch (a, b) {
        case (.program, .app):
            let option = metric == .instructions ? " --metric instructions" : ""
            return
                "check profiles the built-in app unless --result gives the candidate: make the program's result with `launchprof exec\(option) --output head.json -- \(command ?? "COMMAND")` and pass --result head.json"
        case (.app, .program):
            return "a program's result is compared with a program's baseline: record one with `launchprof exec --record -- COMMAND`"
        case (.program, .program):
            return "give the same command (or the same --name) on both sides, and --for-command NAME to find a stored baseline by it"
        case (.app, .app):
            return "pick the baseline of the same manifest with --for-manifest NAME, or compare two manifests now with --baseline-manifest"
        }
    }
}
