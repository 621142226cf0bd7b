import LaunchCore
import LaunchStats

/// `check`'s caveat for a side whose runs fired the busy-machine rule (docs/why-slow.md): a
/// comparison of times made while the machine was busy says as much about the load as the change.
enum BusyMachineCaveat {
    /// One caveat per side (baseline first) whose result says the machine was busy.
    static func caveats(baseline: LaunchResult?, candidate: LaunchResult) -> [String] {
        [("baseline", baseline), ("candidate", candidate)].compactMap { side, result in
            guard let reason = result?.slowReasons?.first(where: { $0.rule == SlowLaunchRule.busyMachine.rawValue }) else { return nil }
            return "the \(side)'s runs: \(reason.message)"
        }
    }
}
