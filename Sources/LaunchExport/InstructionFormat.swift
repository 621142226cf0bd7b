/// Instruction counts as people read them: `118.4 M`, `2.1 G`, `950 K`, `812`.
public enum InstructionFormat {
    /// `count` with one decimal in the largest unit (K, M, G, T) that keeps it at least 1.
    public static func count(_ count: Double) -> String {
        guard count.isFinite else { return "-" }
        let magnitude = abs(count)
        let units: [(Double, String)] = [(1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "K")]
        for (scale, unit) in units where magnitude >= scale {
            return SecondsFormat.format(count / scale, precision: 1) + " " + unit
        }
        return SecondsFormat.format(count, precision: 0)
    }
}
