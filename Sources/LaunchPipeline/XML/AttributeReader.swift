import LaunchImage

/// Typed, checked access to one element's attributes: every error names file, line and column,
/// and attributes the schema does not know are refused (a typo never silently falls back to a default).
struct AttributeReader {
    let node: XMLNode
    let file: String

    /// Checks that every attribute of `node` is one of `allowed` (names compared as bytes; only
    /// when one is not are `String`s made, for the message).
    init(_ node: XMLNode, file: String, allowed: [String]) throws(PipelineError) {
        self.node = node
        self.file = file
        var unknown: String?
        for i in 0..<node.attributeCount where !allowed.contains(where: { node.attribute(at: i, isNamed: $0) }) {
            let name = node.attributeName(at: i)
            if unknown.map({ name < $0 }) ?? true { unknown = name }
        }
        if let unknown {
            throw error("<\(node.name)> has no attribute '\(unknown)' (allowed: \(allowed.sorted().joined(separator: ", ")))")
        }
    }

    func error(_ reason: String) -> PipelineError {
        PipelineError.xml(file: file, node: node, reason)
    }

    func string(_ name: String) throws(PipelineError) -> String {
        guard let value = node.attribute(name) else { throw error("<\(node.name)> needs attribute '\(name)'") }
        return value
    }

    func optionalString(_ name: String) -> String? {
        node.attribute(name)
    }

    /// `true` when the element has attribute `name` (no `String` made).
    func has(_ name: String) -> Bool {
        node.hasAttribute(name)
    }

    /// A number; without `max`, at most ``lengthLimit`` in size (a theme's lengths and angles), so no
    /// value can overflow the rasterizer's pixel arithmetic. `unbounded` lifts that for data values.
    func double(
        _ name: String, default fallback: Double? = nil, min: Double? = nil, max: Double? = nil,
        unbounded: Bool = false
    ) throws(PipelineError) -> Double {
        guard let text = node.attribute(name) else {
            if let fallback { return fallback }
            throw error("<\(node.name)> needs attribute '\(name)'")
        }
        guard let value = Double(text.trimmed), value.isFinite else {
            throw error("attribute '\(name)' must be a number, not '\(text)'")
        }
        if let min, value < min { throw error("attribute '\(name)' must be at least \(min.compact), not \(text)") }
        if let max, value > max { throw error("attribute '\(name)' must be at most \(max.compact), not \(text)") }
        if !unbounded, max == nil, abs(value) > Self.lengthLimit {
            throw error("attribute '\(name)' must be between -\(Self.lengthLimit.compact) and \(Self.lengthLimit.compact), not \(text)")
        }
        return value
    }

    /// The largest length a theme may give, in points (a screen is at most 8192 pixels on a side).
    static let lengthLimit = 10_000.0

    func optionalDouble(_ name: String, min: Double? = nil, max: Double? = nil) throws(PipelineError) -> Double? {
        node.hasAttribute(name) ? try double(name, min: min, max: max) : nil
    }

    func int(_ name: String, default fallback: Int? = nil, min: Int? = nil, max: Int? = nil) throws(PipelineError) -> Int {
        guard let text = node.attribute(name) else {
            if let fallback { return fallback }
            throw error("<\(node.name)> needs attribute '\(name)'")
        }
        guard let value = Int(text.trimmed) else {
            throw error("attribute '\(name)' must be a whole number, not '\(text)'")
        }
        if let min, value < min { throw error("attribute '\(name)' must be at least \(min), not \(value)") }
        if let max, value > max { throw error("attribute '\(name)' must be at most \(max), not \(value)") }
        return value
    }

    func bool(_ name: String, default fallback: Bool) throws(PipelineError) -> Bool {
        guard let text = node.attribute(name) else { return fallback }
        switch text.trimmed {
        case "true", "yes", "1": return true
        case "false", "no", "0": return false
        default: throw error("attribute '\(name)' must be true or false, not '\(text)'")
        }
    }

    /// A list of numbers separated by commas, e.g. `insets="20,0,0,0"`, each within `min…max`.
    func doubles(_ name: String, count: Int, min: Double = -lengthLimit, max: Double = lengthLimit) throws(PipelineError) -> [Double]? {
        guard let text = node.attribute(name) else { return nil }
        let pieces = text.split(separator: ",", omittingEmptySubsequences: false)
        let parts = pieces.compactMap { Double($0.trimmed) }
        guard pieces.count == count, parts.count == count, parts.allSatisfy(\.isFinite) else {
            throw error("attribute '\(name)' must be \(count) comma-separated numbers, not '\(text)'")
        }
        guard parts.allSatisfy({ $0 >= min && $0 <= max }) else {
            throw error("attribute '\(name)': each of the \(count) numbers must be from \(min.compact) to \(max.compact), not '\(text)'")
        }
        return parts
    }
}

/// Parses `#rgb`, `#rrggbb` and `#rrggbbaa` colours.
func parseHexColor(_ text: String) -> RGBA? {
    let hex = Array(text.trimmed.utf8)
    guard hex.first == UInt8(ascii: "#") else { return nil }
    var digits: [UInt8] = []
    for c in hex.dropFirst() {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digits.append(c - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digits.append(c - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digits.append(c - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }
    switch digits.count {
    case 3: return RGBA(digits[0] * 17, digits[1] * 17, digits[2] * 17)
    case 6, 8:
        let bytes = stride(from: 0, to: digits.count, by: 2).map { digits[$0] << 4 | digits[$0 + 1] }
        return RGBA(bytes[0], bytes[1], bytes[2], bytes.count == 4 ? bytes[3] : 255)
    default: return nil
    }
}

extension StringProtocol {
    /// Without leading and trailing whitespace (`Character.isWhitespace`).
    var trimmed: String {
        // Most values start and end with a printable ASCII character: nothing to trim. (The last
        // character's first scalar is then that ASCII one or a prepended mark, never whitespace.)
        let string = String(self)
        if let first = string.utf8.first, let last = string.utf8.last, (0x21...0x7E).contains(first), (0x21...0x7E).contains(last) {
            return string
        }
        var s = Substring(string)
        while let c = s.first, c.isWhitespace { s.removeFirst() }
        while let c = s.last, c.isWhitespace { s.removeLast() }
        return String(s)
    }
}

extension Double {
    /// `3` for 3.0, `2.5` for 2.5.
    var compact: String { self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self) }
}
