/// Reads back a time as the reports print it (`830 µs`, `1.25 ms`, `2.31 s`), in seconds.
enum DurationText {
    static func seconds(_ number: Substring, _ unit: Substring) -> Double? {
        guard let value = Double(number) else { return nil }
        switch unit {
        case "µs": return value / 1_000_000
        case "ms": return value / 1000
        case "s": return value
        default: return nil
        }
    }

    /// The first time printed after `prefix` in `text`.
    static func seconds(after prefix: String, in text: String) -> Double? {
        guard let range = text.range(of: prefix) else { return nil }
        let words = text[range.upperBound...].split(separator: " ", maxSplits: 2)
        guard words.count >= 2 else { return nil }
        return seconds(words[0], words[1].prefix { $0.isLetter })
    }
}
