/// Durations for people, in the unit that fits, as hyperfine prints them: `830 µs`, `1.25 ms`,
/// `2.31 s`. Without Foundation and without locale surprises: always a dot, never a thousands
/// separator. Machine formats (JSON, CSV) keep seconds as plain numbers and do not use this.
///
/// `digits` is the number of significant digits (`--precision`, 3 by default), never rounding away
/// a digit before the point: with 3, `830 µs`, `12.3 ms`, `1.25 ms`, `0.400 µs`; with 0, whole
/// units. The unit is chosen on the rounded value, so 999.6 µs prints as `1.00 ms`, never
/// `1000 µs`. Exactly 0 prints as `0 s`; NaN as `n/a` (never as 0); infinities as `inf`/`-inf`.
public enum DurationFormat {
    /// A unit of time and its size in seconds.
    public enum Unit: String, Sendable, CaseIterable {
        case microseconds = "µs"
        case milliseconds = "ms"
        case seconds = "s"

        public var seconds: Double {
            switch self {
            case .microseconds: 1e-6
            case .milliseconds: 1e-3
            case .seconds: 1
            }
        }

        /// The unit of `value` seconds: µs below 1 ms, ms below 1 s, else s (hyperfine's rule).
        public static func fitting(_ value: Double) -> Unit {
            let magnitude = abs(value)
            if magnitude < 1e-3 { return .microseconds }
            if magnitude < 1 { return .milliseconds }
            return .seconds
        }

        var larger: Unit? {
            switch self {
            case .microseconds: .milliseconds
            case .milliseconds: .seconds
            case .seconds: nil
            }
        }
    }

    /// The default number of significant digits.
    public static let defaultDigits = 3
    /// The most decimals ever printed.
    static let maximumDecimals = 9

    /// `value` seconds in the unit that fits, with `digits` significant digits: `1.25 ms`.
    public static func format(_ value: Double, digits: Int = defaultDigits) -> String {
        guard let (unit, decimals) = layout(value, digits: digits) else { return special(value) }
        return fixed(value / unit.seconds, decimals: decimals) + " " + unit.rawValue
    }

    /// A signed change: `+1.20 ms`, `-830 µs`, `+0 s`.
    public static func signed(_ value: Double, digits: Int = defaultDigits) -> String {
        guard value.isFinite else { return special(value) }
        let text = format(value, digits: digits)
        return text.hasPrefix("-") ? text : "+" + text
    }

    /// `value ± spread` with the spread in the value's unit and decimals, as hyperfine prints
    /// `mean ± σ`: `12.3 ms ± 0.4 ms`.
    public static func format(_ value: Double, spread: Double, digits: Int = defaultDigits) -> String {
        format([value, spread], like: value, digits: digits).joined(separator: " ± ")
    }

    /// Each of `values` in the unit and decimals `reference` takes (a row of statistics read in the
    /// median's unit: `12.3 ms | 0.4 ms | 11.9 ms`); each in its own unit when `reference` is 0 or
    /// not finite.
    public static func format(_ values: [Double], like reference: Double, digits: Int = defaultDigits) -> [String] {
        guard let (unit, decimals) = layout(reference, digits: digits) else { return values.map { format($0, digits: digits) } }
        return values.map { format($0, unit: unit, decimals: decimals) }
    }

    /// `value` seconds in a given unit with a given number of decimals (for columns that share one).
    public static func format(_ value: Double, unit: Unit, decimals: Int) -> String {
        guard value.isFinite else { return special(value) }
        return fixed(value / unit.seconds, decimals: decimals) + " " + unit.rawValue
    }

    /// The unit and decimals `format(value, digits:)` uses; `nil` for 0 and values that are not finite.
    public static func layout(_ value: Double, digits: Int) -> (unit: Unit, decimals: Int)? {
        guard value.isFinite, value != 0 else { return nil }
        let n = max(0, min(digits, maximumDecimals))
        var unit = Unit.fitting(value)
        while true {
            let scaled = abs(value) / unit.seconds
            var decimals = decimalsFor(scaled, digits: n)
            let rounded = roundedMagnitude(scaled, decimals: decimals)
            // Rounding up to a new power of ten (9.996 → 10.00) drops a decimal, to keep `digits`.
            if rounded > 0 { decimals = min(decimals, decimalsFor(rounded, digits: n)) }
            if rounded >= 1000, let larger = unit.larger {
                unit = larger
                continue
            }
            return (unit, decimals)
        }
    }

    static func decimalsFor(_ magnitude: Double, digits: Int) -> Int {
        guard magnitude > 0 else { return 0 }
        var exponent = 0  // floor(log10(magnitude)), without Foundation
        var m = magnitude
        while m >= 10 { m /= 10; exponent += 1 }
        while m < 1, exponent > -20 { m *= 10; exponent -= 1 }
        return max(0, min(digits - 1 - exponent, maximumDecimals))
    }

    static func roundedMagnitude(_ magnitude: Double, decimals: Int) -> Double {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        return (magnitude * scale).rounded() / scale
    }

    static func special(_ value: Double) -> String {
        if value.isNaN { return "n/a" }
        if value.isInfinite { return value < 0 ? "-inf" : "inf" }
        return "0 s"
    }

    /// `value` with `decimals` decimals (0 to 9): a dot, no grouping, no exponent: `fixed(0.8912, decimals: 2) == "0.89"`.
    public static func fixed(_ value: Double, decimals: Int) -> String {
        let p = max(0, min(decimals, maximumDecimals))
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
}
