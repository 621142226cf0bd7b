import LaunchImage

/// Typed, checked access to one element's attributes: every error names file, line and column,
/// and attributes the schema does not know are refused (a typo never silently falls back to a default).
struct AttributeReader {
    let node: XMLNode
    let file: String

    init(_ node: XMLNode, file: String, allowed: Set<String>) throws(XMLError) {
        self.node = node
        self.file = file
        if let unknown = node.attributes.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw error("<\(node.name)> has no attribute '\(unknown)' (allowed: \(allowed.sorted().joined(separator: ", ")))")
        }
    }

    func error(_ reason: String) -> XMLError {
        XMLError(file: file, node: node, reason)
    }

    func string(_ name: String) throws(XMLError) -> String {
        guard let value = node.attributes[name] else { throw error("<\(node.name)> needs attribute '\(name)'") }
        return value
    }

    func optionalString(_ name: String) -> String? {
        node.attributes[name]
    }

    /// A number; without `max`, at most ``lengthLimit`` in size (a theme's lengths and angles), so no
    /// value can overflow the rasterizer's pixel arithmetic. `unbounded` lifts that for data values.
    func double(
        _ name: String, default fallback: Double? = nil, min: Double? = nil, max: Double? = nil,
        unbounded: Bool = false
    ) throws(XMLError) -> Double {
        guard let text = node.attributes[name] else {
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

    func optionalDouble(_ name: String, min: Double? = nil, max: Double? = nil) throws(XMLError) -> Double? {
        node.attributes[name] == nil ? nil : try double(name, min: min, max: max)
    }

    func int(_ name: String, default fallback: Int? = nil, min: Int? = nil, max: Int? = nil) throws(XMLError) -> Int {
        guard let text = node.attributes[name] else {
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

    func bool(_ name: String, default fallback: Bool) throws(XMLError) -> Bool {
        guard let text = node.attributes[name] else { return fallback }
        switch text.trimmed {
        case "true", "yes", "1": return true
        case "false", "no", "0": return false
        default: throw error("attribute '\(name)' must be true or false, not '\(text)'")
        }
    }

    /// A list of numbers separated by commas, e.g. `insets="20,0,0,0"`, each within `min…max`.
    func doubles(_ name: String, count: Int, min: Double = -lengthLimit, max: Double = lengthLimit) throws(XMLError) -> [Double]? {
        guard let text = node.attributes[name] else { return nil }
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
    var trimmed: String {
        var s = Substring(self)
        while let c = s.first, c.isWhitespace { s.removeFirst() }
        while let c = s.last, c.isWhitespace { s.removeLast() }
        return String(s)
    }
}

extension Double {
    /// `3` for 3.0, `2.5` for 2.5.
    var compact: String { self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self) }
}
