/// One reason a launch is slow, found by a documented rule (`Why it is slow` in the report).
public struct SlowReason: Codable, Equatable, Sendable {
    /// The rule that fired, e.g. `decodeOnMainThread` (docs/why-slow.md lists them).
    public var rule: String
    /// What was measured, in the rule's unit (a share of the launch 0…1, seconds, or a count).
    public var value: Double
    /// The rule's threshold, in the same unit.
    public var threshold: Double
    /// The finding and what to try, as the report prints it.
    public var message: String

    public init(rule: String, value: Double, threshold: Double, message: String) {
        self.rule = rule
        self.value = value
        self.threshold = threshold
        self.message = message
    }
}
