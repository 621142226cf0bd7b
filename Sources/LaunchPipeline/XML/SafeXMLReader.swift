import CXMLShim
import LaunchCore

/// Parses XML into an ``XMLNode`` tree with libxml2's SAX2 parser (through the `CXMLShim` C target),
/// safely: no network, no entity substitution, no DTD loading, libxml2's own amplification limits
/// kept (never `XML_PARSE_HUGE`), a DOCTYPE or entity declaration refused *inside the parser* (its
/// internal-subset and entity-declaration callbacks, wherever the declaration stands), elements
/// nested at most ``maximumDepth`` deep, and errors that carry file, line and column.
public enum SafeXMLReader {
    /// The deepest nesting of elements accepted: a theme nests 4 levels, a data file 3; deeper
    /// documents would only build deep trees (and deep recursion) for nothing.
    public static let maximumDepth = 200

    /// Reads and parses the file at `path`, a regular file within `kind`'s size limit.
    public static func read(path: String, kind: InputLimit = .theme) throws -> XMLNode {
        let bytes = try FileIO.read(path, limit: kind)
        return try parse(bytes, file: path)
    }

    /// Parses `bytes`; `file` names the document in errors.
    public static func parse(_ bytes: [UInt8], file: String) throws(XMLError) -> XMLNode {
        if let (line, column, byte) = invalidUTF8Position(in: bytes) {
            throw XMLError(
                file: file, line: line, column: column,
                reason: "invalid UTF-8 (byte 0x\(String(byte, radix: 16, uppercase: true))): themes and data files must be UTF-8",
                kind: .encoding)
        }
        if let declared = declaredEncoding(bytes), !["utf-8", "utf8"].contains(declared.lowercased()) {
            throw XMLError(
                file: file, line: 1, column: 1, reason: "encoding '\(declared)' is not supported: themes and data files must be UTF-8",
                kind: .encoding)
        }
        guard bytes.count < Int(Int32.max) else {
            throw XMLError(file: file, line: 1, column: 1, reason: "larger than 2 GiB", kind: .malformed)
        }
        let builder = TreeBuilder()
        var callbacks = lp_xml_callbacks(
            start: { context, name, attributes, count, line, column in
                let builder = Unmanaged<TreeBuilder>.fromOpaque(context!).takeUnretainedValue()
                var dictionary = [String: String](minimumCapacity: Int(count))
                for i in 0..<Int(count) {
                    guard let key = attributes?[3 * i], let start = attributes?[3 * i + 1], let end = attributes?[3 * i + 2] else { continue }
                    let value = start.withMemoryRebound(to: UInt8.self, capacity: end - start) {
                        String(decoding: UnsafeBufferPointer(start: $0, count: max(0, end - start)), as: UTF8.self)
                    }
                    dictionary[builder.name(key)] = value
                }
                builder.start(builder.name(name!), dictionary, line: Int(line), column: Int(column))
            },
            end: { context in
                Unmanaged<TreeBuilder>.fromOpaque(context!).takeUnretainedValue().end()
            },
            text: { context, characters, length in
                guard let characters, length > 0 else { return }
                characters.withMemoryRebound(to: UInt8.self, capacity: Int(length)) {
                    Unmanaged<TreeBuilder>.fromOpaque(context!).takeUnretainedValue()
                        .text(UnsafeBufferPointer(start: $0, count: Int(length)))
                }
            })
        var error = lp_xml_error()
        let status = withExtendedLifetime(builder) {
            bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { chars in
                    lp_xml_parse(
                        chars.baseAddress, Int32(chars.count), Int32(maximumDepth), &callbacks,
                        Unmanaged.passUnretained(builder).toOpaque(), &error)
                }
            }
        }
        if status != 0 {
            let code = Int(error.code)
            var reason: String
            var kind = XMLError.Kind.malformed
            switch code {
            case Int(LP_XML_DOCTYPE): reason = "DOCTYPE declarations are not allowed (entities are never expanded)"; kind = .doctype
            case Int(LP_XML_ENTITY): reason = "entity declarations are not allowed"; kind = .entity
            case Int(LP_XML_TOO_DEEP): reason = "elements are nested more than \(maximumDepth) deep (the limit)"; kind = .tooDeep
            case 89: reason = libxml2Message(code); kind = .entity
            case 31, 32, 81: reason = libxml2Message(code); kind = .encoding
            default: reason = libxml2Message(code)
            }
            if [5, 77, 85].contains(code), let open = builder.openElement {
                reason = "premature end of document: <\(open.name)> (line \(open.line)) is not closed"
            }
            throw XMLError(file: file, line: max(Int(error.line), 1), column: max(Int(error.column), 1), reason: reason, kind: kind)
        }
        guard let root = builder.root else {
            throw XMLError(file: file, line: 1, column: 1, reason: "document is empty", kind: .malformed)
        }
        return root
    }

    /// The line, column and value of the first byte that is not part of valid UTF-8, if any.
    static func invalidUTF8Position(in bytes: [UInt8]) -> (Int, Int, UInt8)? {
        if isASCIIWithoutNUL(bytes) { return nil }
        if String(validating: bytes, as: UTF8.self) != nil, !bytes.contains(0) { return nil }
        var line = 1, column = 1, i = 0
        while i < bytes.count {
            let b = bytes[i]
            let length: Int
            switch b {
            case 0: return (line, column, b)
            case 0x01...0x7F: length = 1
            case 0xC2...0xDF: length = 2
            case 0xE0...0xEF: length = 3
            case 0xF0...0xF4: length = 4
            default: return (line, column, b)
            }
            guard i + length <= bytes.count else { return (line, column, b) }
            if length > 1 {
                let sequence = Array(bytes[i..<(i + length)])
                if String(validating: sequence, as: UTF8.self) == nil { return (line, column, b) }
            }
            if b == UInt8(ascii: "\n") { line += 1; column = 1 } else { column += 1 }
            i += length
        }
        return nil
    }

    /// `true` when every byte is ASCII and none is NUL (most themes and data files): valid UTF-8
    /// without building a `String` of the whole document to find out.
    static func isASCIIWithoutNUL(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            // Branch-free, so the loop vectorizes: the OR of all bytes has bit 7 clear for ASCII only,
            // and the smallest byte is 0 when there is a NUL.
            var high: UInt8 = 0, low: UInt8 = 0xFF
            for b in buffer {
                high |= b
                low = min(low, b)
            }
            return high < 0x80 && low != 0
        }
    }

    /// The `encoding` of the XML declaration, if there is one.
    static func declaredEncoding(_ bytes: [UInt8]) -> String? {
        guard bytes.starts(with: Array("<?xml".utf8)), let end = bytes.firstIndex(of: UInt8(ascii: ">")) else { return nil }
        let declaration = String(decoding: bytes[..<end], as: UTF8.self)
        guard let range = declaration.firstRange(of: "encoding") else { return nil }
        let rest = declaration[range.upperBound...].drop { $0 == " " || $0 == "=" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        return String(rest.dropFirst().prefix { $0 != quote })
    }

    /// A sentence for a libxml2 error code (`xmlParserErrors`).
    static func libxml2Message(_ code: Int) -> String {
        switch code {
        case 4: return "document is empty"
        case 5: return "extra content at the end of the document"
        case 6, 7, 8: return "invalid character reference"
        case 9: return "invalid character in document"
        case 23: return "entity reference is missing its ';'"
        case 26: return "undeclared entity"
        case 31, 32: return "unsupported encoding"
        case 38: return "'<' is not allowed in an attribute value"
        case 39: return "attribute value must be quoted"
        case 40: return "attribute value is not closed"
        case 41: return "attribute has no value"
        case 42: return "attribute is defined twice"
        case 45: return "comment is not closed"
        case 57: return "XML declaration is not closed"
        case 64: return "reserved XML name"
        case 65: return "space required"
        case 68: return "element or attribute name expected"
        case 73: return "'>' expected"
        case 74: return "'</' expected"
        case 75: return "'=' expected after attribute name"
        case 76: return "opening and ending tag mismatch"
        case 77: return "element is not closed (premature end of document)"
        case 80: return "'--' is not allowed inside a comment"
        case 81: return "invalid encoding (the file is not valid UTF-8)"
        case 85: return "document is not well balanced"
        case 86: return "extra content at the end of the document"
        case 89: return "entity expansion loop or amplification (refused)"
        default: return "malformed XML (libxml2 error \(code))"
        }
    }
}

/// Builds the element tree from the parser's callbacks.
private final class TreeBuilder {
    private struct Open {
        var name: String
        var attributes: [String: String]
        var children: [XMLNode] = []
        /// The element's own text, as UTF-8 bytes (libxml2 has checked they are valid).
        var text: [UInt8] = []
        var line: Int
        var column: Int
    }

    private var stack: [Open] = []
    var root: XMLNode?
    /// Element and attribute names made so far, by libxml2's pointer. SAX2 hands over local names
    /// interned in the parser's dictionary (xmlParseQName → xmlDictLookup), which lives as long as the
    /// parse: a name seen again has the same pointer, and no pointer ever names two strings. (libxml2's
    /// own tree builder relies on the same: with `dictNames` it keeps the pointer instead of copying.)
    /// So each name's `String` is made once per parse.
    private var names: [(pointer: UnsafePointer<CChar>, name: String)] = []

    /// The name at `pointer` (NUL-terminated UTF-8 from libxml2's dictionary).
    func name(_ pointer: UnsafePointer<CChar>) -> String {
        for entry in names where entry.pointer == pointer { return entry.name }
        let name = String(cString: pointer)
        // A few distinct names per document; past that, stop remembering (a hostile file may have many).
        if names.count < 32 { names.append((pointer, name)) }
        return name
    }
    /// The innermost element still open, if the document ended inside one.
    var openElement: (name: String, line: Int)? { stack.last.map { ($0.name, $0.line) } }

    func start(_ name: String, _ attributes: [String: String], line: Int, column: Int) {
        stack.append(Open(name: name, attributes: attributes, line: line, column: column))
    }

    func end() {
        guard let open = stack.popLast() else { return }
        let node = XMLNode(
            name: open.name, attributes: open.attributes, children: open.children,
            text: Self.trimmed(open.text), line: open.line, column: open.column)
        if stack.isEmpty { root = node } else { stack[stack.count - 1].children.append(node) }
    }

    func text(_ bytes: UnsafeBufferPointer<UInt8>) {
        if !stack.isEmpty { stack[stack.count - 1].text.append(contentsOf: bytes) }
    }

    /// The text without leading and trailing XML whitespace (space, tab, CR, LF).
    static func trimmed(_ text: [UInt8]) -> String {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x0A || $0 == 0x09 || $0 == 0x0D }
        guard let first = text.firstIndex(where: { !isSpace($0) }), let last = text.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(decoding: text[first...last], as: UTF8.self)
    }
}
