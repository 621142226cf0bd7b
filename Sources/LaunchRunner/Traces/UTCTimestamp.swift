/// Reads the UTC times git's Trace2 writes (`2024-05-01T12:00:00.123456Z`), without Foundation.
enum UTCTimestamp {
    /// Microseconds since 1970-01-01T00:00:00Z, or `nil` unless `text` is `YYYY-MM-DDTHH:MM:SS`,
    /// an optional fraction of 1 to 9 digits (cut to µs), and `Z`, with every field in range
    /// (years 1970 to 9999; a leap second, `:60`, is accepted).
    static func microseconds(_ text: String) -> Int64? {
        let b = Array(text.utf8)
        guard b.count >= 20, b.count <= 30, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"), b[10] == UInt8(ascii: "T"),
              b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"), b.last == UInt8(ascii: "Z") else { return nil }
        func number(_ from: Int, _ count: Int) -> Int64? {
            var value: Int64 = 0
            for c in b[from..<(from + count)] {
                guard c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int64(c - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
              let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
              year >= 1970, (1...12).contains(month), hour <= 23, minute <= 59, second <= 60 else { return nil }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let monthDays: [Int64] = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard day >= 1, day <= monthDays[Int(month - 1)] else { return nil }
        var micros: Int64 = 0
        if b.count > 20 {
            let digits = b.count - 21
            guard b[19] == UInt8(ascii: "."), (1...9).contains(digits), let fraction = number(20, digits) else { return nil }
            var scaled = fraction
            for _ in 0..<max(0, 6 - digits) { scaled *= 10 }
            for _ in 0..<max(0, digits - 6) { scaled /= 10 }
            micros = scaled
        } else {
            guard b.count == 20 else { return nil }
        }
        let seconds = daysSinceEpoch(year: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60 + second
        return seconds * 1_000_000 + micros
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (H. Hinnant's `days_from_civil`).
    static func daysSinceEpoch(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = y / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
