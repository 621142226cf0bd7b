/// Reads the UTC times git's Trace2 writes (`2024-05-01T12:00:00.123456Z`), without Foundation.
enum UTCTimestamp {
    /// Microseconds since 1970-01-01T00:00:00Z, or `nil` unless `text` is `YYYY-MM-DDTHH:MM:SS`,
    /// an optional fraction of 1 to 9 digits (cut to µs), and `Z`, with every field in range
    /// (years 1970 to 9999; a leap second, `:60`, is accepted).
    static func microseconds(_ text: String) -> Int64? {
        microseconds(Array(text.utf8)[...])
    }

    /// ``microseconds(_:)-(String)`` of UTF-8 bytes (read in place).
    static func microseconds(_ text: ArraySlice<UInt8>) -> Int64? {
        let s = text.startIndex, count = text.count
        func at(_ i: Int) -> UInt8 { text[s + i] }
        guard count >= 20, count <= 30, at(4) == UInt8(ascii: "-"), at(7) == UInt8(ascii: "-"), at(10) == UInt8(ascii: "T"),
            at(13) == UInt8(ascii: ":"), at(16) == UInt8(ascii: ":"), at(count - 1) == UInt8(ascii: "Z")
        else { return nil }
        func number(_ from: Int, _ digits: Int) -> Int64? {
            var value: Int64 = 0
            for i in from..<(from + digits) {
                let c = at(i)
                guard c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int64(c - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
            let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
            year >= 1970, (1...12).contains(month), hour <= 23, minute <= 59, second <= 60
        else { return nil }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let monthDays: Int64 =
            switch month {
            case 2: leap ? 29 : 28
            case 4, 6, 9, 11: 30
            default: 31
            }
        guard day >= 1, day <= monthDays else { return nil }
        var micros: Int64 = 0
        if count > 20 {
            let digits = count - 21
            guard at(19) == UInt8(ascii: "."), (1...9).contains(digits), let fraction = number(20, digits) else { return nil }
            var scaled = fraction
            for _ in 0..<max(0, 6 - digits) { scaled *= 10 }
            for _ in 0..<max(0, digits - 6) { scaled /= 10 }
            micros = scaled
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
