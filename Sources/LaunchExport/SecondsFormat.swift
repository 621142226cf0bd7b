/// Formats seconds with a fixed number of decimals (`0.89s`), without Foundation and without
/// locale surprises: always a dot, never a thousands separator.
public enum SecondsFormat {
    /// `value` rounded to `precision` decimals, e.g. `format(0.8912, precision: 2) == "0.89"`.
    public static func format(_ value: Double, precision: Int) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
        let p = max(0, min(precision, 9))
        var scale: Int64 = 1
        for _ in 0..<p { scale *= 10 }
        let scaled = (abs(value) * Double(scale)).rounded()
        guard scaled < 9e18 else { return String(value) }
        let n = Int64(scaled)
        let whole = n / scale, fraction = n % scale
        let sign = value < 0 && n != 0 ? "-" : ""
        guard p > 0 else { return "\(sign)\(whole)" }
        let digits = String(fraction)
        return "\(sign)\(whole)." + String(repeating: "0", count: p - digits.count) + digits
    }

    /// `format(value, precision:)` followed by `s`.
    public static func seconds(_ value: Double, precision: Int) -> String {
        format(value, precision: precision) + "s"
    }
}
