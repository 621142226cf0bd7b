#if canImport(Glibc)
import Glibc
#endif
import LaunchCore

/// One phase's fields as read (keys come in any order).
struct PhaseFields {
    var name: Int32 = -1
    var kind: PhaseKind?
    var start: Double?
    var duration: Double?
    var thread: Int?
    var depth: Int?
    var parent: Int?
    var afterLaunch: Bool?
    var background: Bool?
    var hostDuration: Double?
    var residentBytes: Int?
    var residentGrowth: Int?
    var instructions: Int?
    var counters: PhaseCounters?
}

/// The fast path of ``ResultStreamParser`` for one phase object written plainly: a single tight pass over bytes
/// already in the buffer, for phases in the form launchprof writes (known keys once each, names of
/// printable ASCII without escapes, plain decimal numbers). It accepts only objects that the general
/// parser reads to the same fields without an error, and returns `nil` — having changed nothing —
/// for anything else (the end of the buffer, an escape, an unknown or repeated key, a missing key, a
/// wrong type, an exponent, more digits than the exact conversion takes…), so the general parser
/// then reads the object and words any error with its line, column and key path.
enum PlainPhaseScanner {
    /// Where a phase read by the plain-phase scanner was.
    struct Outcome {
        /// Where the name's bytes are, for interning.
        var nameStart: Int
        var nameCount: Int
        /// The position after the closing brace.
        var end: Int
        /// Line feeds crossed, and the position after the last one.
        var newlines: Int
        var lastLineStart: Int
    }

    /// The keys of a phase, as ``ResultStreamParser`` numbers them.
    static let keys = KeySet([
        "duration", "name", "start", "depth", "thread", "afterLaunch", "parent", "kind", "instructions",
        "hostDuration", "residentBytes", "residentGrowth", "background", "counters"
    ])
    private static let kinds = KeySet(
        PhaseKind.allCases.map { kind -> StaticString in
            switch kind {
            case .cpu: "cpu"
            case .io: "io"
            case .decode: "decode"
            case .draw: "draw"
            }
        })
    /// The keys every phase has: duration, name, start, depth, thread and afterLaunch.
    private static let required: UInt16 = 0b11_1111

    private static let kindCases = PhaseKind.allCases
    private static let powers: [Double] = (0...22).map { p in (0..<p).reduce(1.0) { acc, _ in acc * 10 } }

    /// Reads the phase object at `b[start]` (its `{`), within `b[start..<e]`, into `f` (which starts
    /// empty; its name is left for the caller to intern from `outcome`). `false` when the general
    /// parser must read it.
    static func scan(_ b: UnsafePointer<UInt8>, from start: Int, end e: Int, into f: inout PhaseFields, outcome: inout Outcome) -> Bool {
        let keys = Self.keys
        var c = Cursor(b: b, e: e, p: start, powers: Self.powers)
        var name: (start: Int, count: Int)?
        var seen: UInt16 = 0
        guard c.openObject() else { return false }
        var more = true
        while more {
            // The member's key (each at most once) and the `:` after it.
            guard let text = c.plainString() else { return false }
            let key = keys.index(of: b + text.start, count: text.count)
            guard key >= 0, seen & (1 << key) == 0 else { return false }
            seen |= 1 << key
            guard c.colon() else { return false }
            // Each key's value into its field (in the scan's loop, so the cursor stays in registers).
            let read: Bool
            switch key {
            case 0: read = store(c.double(), in: &f.duration)
            case 1: read = store(c.name(), in: &name)
            case 2: read = store(c.checkedNumber() ? 0 : nil, in: &f.start)  // Only checked: the table has no use for start times.
            case 3: read = store(c.integer(), in: &f.depth)
            case 4: read = store(c.integer(), in: &f.thread)
            case 5: read = store(c.bool(), in: &f.afterLaunch)
            case 6: read = c.null() || store(c.integer(), in: &f.parent)
            case 7: read = c.null() || store(c.kind(), in: &f.kind)
            case 8: read = c.null() || store(c.integer(), in: &f.instructions)
            case 9: read = c.null() || store(c.double(), in: &f.hostDuration)
            case 10: read = c.null() || store(c.integer(), in: &f.residentBytes)
            case 11: read = c.null() || store(c.integer(), in: &f.residentGrowth)
            case 12: read = c.null() || store(c.bool(), in: &f.background)
            default: read = false  // System counters (an object): the general parser reads them.
            }
            guard read, let next = c.afterMember() else { return false }
            more = next
        }
        guard seen & required == required, let name else { return false }
        outcome = Outcome(nameStart: name.start, nameCount: name.count, end: c.p, newlines: c.newlines, lastLineStart: c.lastLineStart)
        return true
    }

    /// Puts a value read into its field; `false` (the field unchanged) when there is none.
    @inline(__always) private static func store<Value>(_ value: Value?, in field: inout Value?) -> Bool {
        guard let value else { return false }
        field = value
        return true
    }

    /// A number's digits as the scanner's `double` counts them (up to 19 significant ones).
    private struct Number {
        var negative = false
        var mantissa: UInt64 = 0
        var significant = 0
        /// The power of ten to apply to the mantissa (fraction digits and exponent).
        var exponent = 0
        var isInteger = true
        var hasExponent = false
        /// All digits went into the mantissa.
        var exact = true
    }

    /// A position in the buffer, moved by the readers of white space and values.
    private struct Cursor {
        let b: UnsafePointer<UInt8>
        let e: Int
        var p: Int
        var newlines = 0
        var lastLineStart = -1
        let powers: [Double]

        /// Skips white space; `false` at the end of the buffer.
        @inline(__always) mutating func skip() -> Bool {
            p = JSONScanner.skipWhiteSpace(b, from: p, to: e, newlines: &newlines, lastLineStart: &lastLineStart)
            return p < e
        }

        /// Consumes an object's `{` and the white space after it; `false` for anything else, and for
        /// an empty object (the general parser names the keys it lacks).
        @inline(__always) mutating func openObject() -> Bool {
            guard p < e, b[p] == 0x7B else { return false }
            p += 1
            return skip() && b[p] != 0x7D
        }

        /// After a member: `true` for a `,` (and the white space after it), `false` for the closing `}`.
        @inline(__always) mutating func afterMember() -> Bool? {
            guard skip() else { return nil }
            let next = b[p]
            p += 1
            if next == 0x2C { return skip() ? true : nil }
            return next == 0x7D ? false : nil
        }

        /// Consumes a `:` and the white space around it.
        @inline(__always) mutating func colon() -> Bool {
            guard skip(), b[p] == 0x3A else { return false }
            p += 1
            return skip()
        }

        /// A phase's name: a plain string within the token limit.
        @inline(__always) mutating func name() -> (start: Int, count: Int)? {
            guard let name = plainString(), name.count <= ResultLimits.maximumTokenBytes else { return nil }
            return name
        }

        /// A phase's kind: a plain string that names one.
        @inline(__always) mutating func kind() -> PhaseKind? {
            guard let text = plainString() else { return nil }
            let kind = PlainPhaseScanner.kinds.index(of: b + text.start, count: text.count)
            return kind >= 0 ? PlainPhaseScanner.kindCases[kind] : nil
        }

        /// A plain string's bytes (its opening quote at `p`): printable ASCII, no escapes.
        @inline(__always) mutating func plainString() -> (start: Int, count: Int)? {
            guard p < e, b[p] == 0x22 else { return nil }
            let from = p + 1
            var q = from
            while q < e {
                let c = b[q]
                if c == 0x22 { p = q + 1; return (from, q - from) }
                if c < 0x20 || c >= 0x80 || c == 0x5C { return nil }
                q += 1
            }
            return nil
        }

        /// A number in JSON's grammar, ending at a byte that cannot continue it.
        @inline(__always) mutating func number() -> Number? {
            var n = Number()
            guard p < e else { return nil }
            if b[p] == 0x2D { n.negative = true; p += 1 }
            let leading = p
            while p < e {
                let c = b[p]
                guard c >= 0x30 && c <= 0x39 else { break }
                if n.significant < 19 {
                    n.mantissa = n.mantissa * 10 + UInt64(c - 0x30); if n.mantissa > 0 { n.significant += 1 }
                } else {
                    n.exact = false; n.exponent += 1
                }
                p += 1
            }
            guard p > leading, p - leading == 1 || b[leading] != 0x30 else { return nil }
            if p < e && b[p] == 0x2E {
                p += 1
                n.isInteger = false
                let first = p
                while p < e {
                    let c = b[p]
                    guard c >= 0x30 && c <= 0x39 else { break }
                    if n.significant < 19 {
                        n.mantissa = n.mantissa * 10 + UInt64(c - 0x30); if n.mantissa > 0 { n.significant += 1 }; n.exponent -= 1
                    } else {
                        n.exact = false
                    }
                    p += 1
                }
                guard p > first else { return nil }
            }
            if p < e && (b[p] == 0x65 || b[p] == 0x45) {
                p += 1
                n.isInteger = false
                n.hasExponent = true
                var negative = false
                if p < e && (b[p] == 0x2B || b[p] == 0x2D) { negative = b[p] == 0x2D; p += 1 }
                let first = p
                var value = 0
                while p < e {
                    let c = b[p]
                    guard c >= 0x30 && c <= 0x39 else { break }
                    if value < 100_000 { value = value * 10 + Int(c - 0x30) }
                    p += 1
                }
                guard p > first else { return nil }
                n.exponent += negative ? -value : value
            }
            // Anything that could continue the number (a second point or sign): the general parser's business.
            guard p < e else { return nil }
            let c = b[p]
            guard c != 0x2E && c != 0x2D && c != 0x2B && c != 0x65 && c != 0x45 else { return nil }
            return n
        }

        /// A double converted exactly, as the scanner's fast path converts it (the same value).
        @inline(__always) mutating func double() -> Double? {
            guard let n = number() else { return nil }
            return value(n)
        }

        private func value(_ n: Number) -> Double? {
            // All digits zero: zero, whatever the exponent.
            if n.mantissa == 0 && n.exact { return n.negative ? -0.0 : 0.0 }
            guard n.exact, n.mantissa <= 1 << 53, n.exponent >= -22, n.exponent <= 22 else { return nil }
            let value = n.exponent >= 0 ? Double(n.mantissa) * powers[n.exponent] : Double(n.mantissa) / powers[-n.exponent]
            return n.negative ? -value : value
        }

        /// A number that is certainly finite and, unless zero, does not round to zero (its value unused).
        @inline(__always) mutating func checkedNumber() -> Bool {
            let from = p
            guard let n = number() else { return false }
            if !n.hasExponent { return p - from <= 300 }
            return value(n) != nil
        }

        @inline(__always) mutating func integer() -> Int? {
            guard let n = number(), n.isInteger, n.exact, n.significant <= 18 else { return nil }
            return n.negative ? -Int(n.mantissa) : Int(n.mantissa)
        }

        /// Consumes `null` when it is next.
        @inline(__always) mutating func null() -> Bool {
            guard e - p >= 4, b[p] == 0x6E, b[p + 1] == 0x75, b[p + 2] == 0x6C, b[p + 3] == 0x6C else { return false }
            p += 4
            return true
        }

        @inline(__always) mutating func bool() -> Bool? {
            if e - p >= 4, b[p] == 0x74, b[p + 1] == 0x72, b[p + 2] == 0x75, b[p + 3] == 0x65 {
                p += 4
                return true
            }
            if e - p >= 5, b[p] == 0x66, b[p + 1] == 0x61, b[p + 2] == 0x6C, b[p + 3] == 0x73, b[p + 4] == 0x65 {
                p += 5
                return false
            }
            return nil
        }
    }
}
