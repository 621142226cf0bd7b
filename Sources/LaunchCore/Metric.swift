/// What a launch is measured in. A typed key, so thresholds, options and exporters name a metric
/// without strings.
public enum Metric: String, Codable, Sendable, CaseIterable {
    /// Wall-clock seconds: what users feel, and noisy on shared machines.
    case time
    /// Instructions executed (Callgrind's `Ir`): repeatable to a few instructions whatever the
    /// machine is doing, so a 1% change is a real change. Counted under Valgrind, which is slow.
    case instructions
}
