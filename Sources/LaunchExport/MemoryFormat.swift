/// Formats byte counts for people: `27.2 MiB`, `+0.9 MiB`, `512 KiB`.
public enum MemoryFormat {
    /// `bytes` in MiB with one decimal.
    public static func mebibytes(_ bytes: Int) -> String {
        SecondsFormat.format(Double(bytes) / 1_048_576, precision: 1) + " MiB"
    }

    /// A signed change: `+0.9 MiB`, `-1.0 MiB`, `+0.0 MiB`.
    public static func change(_ bytes: Int) -> String {
        (bytes < 0 ? "-" : "+") + mebibytes(abs(bytes))
    }
}
