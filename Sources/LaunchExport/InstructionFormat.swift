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

extension InstructionFormat {
    /// A whole count in full, its digits grouped by three with commas: `5,000,001`.
    public static func exact(_ count: Double) -> String {
        guard count.isFinite, abs(count) < 9.0e15 else { return self.count(count) }
        let digits = String(Int64(abs(count).rounded()))
        var grouped = ""
        for (i, digit) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { grouped += "," }
            grouped.append(digit)
        }
        return (count < 0 ? "-" : "") + grouped
    }
}
