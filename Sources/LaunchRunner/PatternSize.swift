/// How large a POSIX extended regular expression becomes once `regcomp` writes its repetitions out:
/// glibc copies the operand of `a{m,n}` n times (and `a+` as `aa*`), so nested counts multiply
/// (`x{32767}{32767}` is a billion copies: seconds and gigabytes before `regexec` ever runs).
/// Measured before `regcomp`, by a single pass over the pattern without recursion.
enum PatternSize {
    /// The most atoms a pattern may hold with its repetitions written out (`docs/limits.md`): at this
    /// size glibc's `regcomp` takes about 0.2 s and 40 MB.
    static let maximumAtoms = 100_000

    /// The atoms of `pattern` with every repetition written out (`ab{3}` is 4, `(ab){3}` is 6,
    /// `a+` is 2), saturating at `Int.max`. A bracket expression and an escaped character are one atom.
    static func writtenOut(_ pattern: some Collection<UInt8>) -> Int {
        let bytes = Array(pattern)
        // One frame per open group: the size of its finished alternatives and pieces, and of its last piece
        // (which a following repetition multiplies).
        var frames: [(total: Int, last: Int)] = [(0, 0)]
        func commit() {
            let f = frames.count - 1
            frames[f].total = frames[f].total.addingSaturating(frames[f].last)
            frames[f].last = 0
        }
        func multiplyLast(by factor: Int) {
            let f = frames.count - 1
            frames[f].last = frames[f].last.multipliedSaturating(by: max(1, factor))
        }
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            switch byte {
            case UInt8(ascii: "("):
                commit()
                frames.append((0, 0))
                i += 1
            case UInt8(ascii: ")") where frames.count > 1:
                commit()
                let group = frames.removeLast().total
                frames[frames.count - 1].last = max(1, group)
                i += 1
            case UInt8(ascii: "|"):
                commit()
                i += 1
            case UInt8(ascii: "*"), UInt8(ascii: "?"):
                i += 1
            case UInt8(ascii: "+"):
                multiplyLast(by: 2)
                i += 1
            case UInt8(ascii: "{"):
                if let (factor, end) = interval(bytes, at: i) {
                    multiplyLast(by: factor)
                    i = end
                } else {
                    commit()
                    frames[frames.count - 1].last = 1
                    i += 1
                }
            case UInt8(ascii: "["):
                commit()
                frames[frames.count - 1].last = 1
                i = bracketEnd(bytes, at: i)
            case UInt8(ascii: "\\"):
                commit()
                frames[frames.count - 1].last = 1
                i += 2
            default:
                commit()
                frames[frames.count - 1].last = 1
                i += 1
            }
        }
        // Groups left open (which regcomp refuses) count as they stand.
        var size = 0
        for frame in frames { size = size.addingSaturating(frame.total.addingSaturating(frame.last)) }
        return size
    }

    /// The copies an interval `{m}`, `{m,}` or `{m,n}` at `start` makes (n, or m + 1 when open) and
    /// the index after it; `nil` when the brace does not start an interval.
    private static func interval(_ bytes: [UInt8], at start: Int) -> (Int, Int)? {
        var i = start + 1
        func number() -> Int? {
            var value: Int?
            while i < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[i]) {
                value = (value ?? 0).multipliedSaturating(by: 10).addingSaturating(Int(bytes[i] - UInt8(ascii: "0")))
                i += 1
            }
            return value
        }
        let low = number()
        var high = low
        if i < bytes.count, bytes[i] == UInt8(ascii: ",") {
            i += 1
            high = number()
            if high == nil { high = low.map { $0.addingSaturating(1) } }
        }
        guard i < bytes.count, bytes[i] == UInt8(ascii: "}"), let copies = high ?? low else { return nil }
        return (copies, i + 1)
    }

    /// The index after the bracket expression opening at `start` (`[]a]`, `[^]a]`, `[[:alpha:]]`).
    private static func bracketEnd(_ bytes: [UInt8], at start: Int) -> Int {
        var i = start + 1
        if i < bytes.count, bytes[i] == UInt8(ascii: "^") { i += 1 }
        if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1 }
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "["), i + 1 < bytes.count, [UInt8(ascii: ":"), UInt8(ascii: "="), UInt8(ascii: ".")].contains(bytes[i + 1]) {
                let delimiter = bytes[i + 1]
                var j = i + 2
                while j + 1 < bytes.count, !(bytes[j] == delimiter && bytes[j + 1] == UInt8(ascii: "]")) { j += 1 }
                i = j + 2
                continue
            }
            if bytes[i] == UInt8(ascii: "]") { return i + 1 }
            i += 1
        }
        return bytes.count
    }
}

extension Int {
    fileprivate func addingSaturating(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }

    fileprivate func multipliedSaturating(by other: Int) -> Int {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? .max : product
    }
}
