/// Formats byte counts for people: `27.2 MiB`, `+0.9 MiB`, `512 KiB`.
public enum MemoryFormat {
    /// `bytes` in MiB with one decimal.
    public static func mebibytes(_ bytes: Int) -> String {
        mebibytes(Double(bytes))
    }

    /// `bytes` (e.g. a median of byte counts) in MiB with one decimal; never converted to `Int`.
    public static func mebibytes(_ bytes: Double) -> String {
        SecondsFormat.format(bytes / 1_048_576, precision: 1) + " MiB"
    }

    /// A signed change: `+0.9 MiB`, `-1.0 MiB`, `+0.0 MiB` (`Int.min` included).
    public static func change(_ bytes: Int) -> String {
        change(Double(bytes))
    }

    /// A signed change from a `Double` byte count.
    public static func change(_ bytes: Double) -> String {
        (bytes < 0 ? "-" : "+") + mebibytes(bytes.magnitude)
    }
}
