import LaunchCore
import LaunchRunner

/// What can be launched as one side of a comparison: the built-in app (``Profile``) or any program
/// (``ExecPlan``). Sessions of it make runs; ``result(_:)`` makes them a result document.
protocol LaunchPlan {
    /// Warm-up runs before the measured ones.
    var warmup: Int { get }
    /// A session of `runs` measured runs after `warmup` warm-ups.
    func session(runs: Int, warmup: Int) -> LaunchSession
    /// A result document for `records` made with this plan.
    func result(_ records: [RunRecord]) -> LaunchResult
}

extension Profile: LaunchPlan {}
