import LaunchCore

/// Formats seconds with a fixed number of decimals (`0.89s`), without Foundation and without
/// locale surprises: always a dot, never a thousands separator.
public enum SecondsFormat {
    /// `value` rounded to `precision` decimals, e.g. `format(0.8912, precision: 2) == "0.89"`.
    public static func format(_ value: Double, precision: Int) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
        return DurationFormat.fixed(value, decimals: precision)
    }

    /// `format(value, precision:)` followed by `s`.
    public static func seconds(_ value: Double, precision: Int) -> String {
        format(value, precision: precision) + "s"
    }
}
