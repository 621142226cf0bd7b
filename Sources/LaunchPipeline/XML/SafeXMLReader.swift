import CXMLShim
import LaunchCore

/// Parses XML into an ``XMLTree`` (one flat arena of elements, attributes and bytes, built by the
/// `CXMLShim` C target from libxml2's SAX2 callbacks without a call into Swift), safely: no network,
/// no entity substitution, no DTD loading, libxml2's own amplification limits kept (never
/// `XML_PARSE_HUGE`), a DOCTYPE or entity declaration refused *inside the parser* (its
/// internal-subset and entity-declaration callbacks, wherever the declaration stands), elements
/// nested at most ``maximumDepth`` deep, and errors that carry file, line and column.
public enum SafeXMLReader {
    /// The deepest nesting of elements accepted: a theme nests 4 levels, a data file 3; deeper
    /// documents would only build deep trees (and deep recursion) for nothing.
    public static let maximumDepth = 200

    /// Reads and parses the file at `path`, a regular file within `kind`'s size limit.
    public static func read(path: String, kind: InputLimit = .theme) throws -> XMLTree {
        let bytes = try FileIO.read(path, limit: kind)
        return try parse(bytes, file: path)
    }

    /// Parses `bytes`; `file` names the document in errors.
    public static func parse(_ bytes: [UInt8], file: String) throws(PipelineError) -> XMLTree {
        if let (line, column, byte) = invalidUTF8Position(in: bytes) {
            throw PipelineError.xml(
                file: file, line: line, column: column,
                reason: "invalid UTF-8 (byte 0x\(String(byte, radix: 16, uppercase: true))): themes and data files must be UTF-8",
                kind: .encoding)
        }
        if let declared = declaredEncoding(bytes), !["utf-8", "utf8"].contains(declared.lowercased()) {
            throw PipelineError.xml(
                file: file, line: 1, column: 1, reason: "encoding '\(declared)' is not supported: themes and data files must be UTF-8",
                kind: .encoding)
        }
        guard bytes.count < Int(Int32.max) else {
            throw PipelineError.xml(file: file, line: 1, column: 1, reason: "larger than 2 GiB", kind: .malformed)
        }
        var error = lp_xml_error()
        let document = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                lp_xml_parse_document(chars.baseAddress, Int32(chars.count), Int32(maximumDepth), &error)
            }
        }
        guard let document else {
            throw PipelineError.xml(file: file, line: 1, column: 1, reason: "out of memory", kind: .malformed)
        }
        // Owns the document from here, whatever happens below.
        let tree = XMLTree(document)
        if error.code != 0 {
            let code = Int(error.code)
            var reason: String
            var kind = PipelineError.XMLProblem.malformed
            switch code {
            case Int(LP_XML_DOCTYPE): reason = "DOCTYPE declarations are not allowed (entities are never expanded)"; kind = .doctype
            case Int(LP_XML_ENTITY): reason = "entity declarations are not allowed"; kind = .entity
            case Int(LP_XML_TOO_DEEP): reason = "elements are nested more than \(maximumDepth) deep (the limit)"; kind = .tooDeep
            case 89: reason = libxml2Message(code); kind = .entity
            case 31, 32, 81: reason = libxml2Message(code); kind = .encoding
            default: reason = libxml2Message(code)
            }
            if [5, 77, 85].contains(code), let open = tree.openElement {
                reason = "premature end of document: <\(open.name)> (line \(open.line)) is not closed"
            }
            throw PipelineError.xml(file: file, line: max(Int(error.line), 1), column: max(Int(error.column), 1), reason: reason, kind: kind)
        }
        guard tree.elementCount > 0 else {
            throw PipelineError.xml(file: file, line: 1, column: 1, reason: "document is empty", kind: .malformed)
        }
        return tree
    }

    /// The line, column and value of the first byte that is not part of valid UTF-8 (or is NUL), if any.
    static func invalidUTF8Position(in bytes: [UInt8]) -> (Int, Int, UInt8)? {
        // The common case, valid, in one pass of the C shim's check (eight ASCII bytes a step); the
        // walk below only finds where the first bad byte is.
        if bytes.withUnsafeBufferPointer({ lp_xml_is_utf8_without_nul($0.baseAddress, $0.count) != 0 }) { return nil }
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

    /// The `encoding` of the XML declaration, if there is one.
    static func declaredEncoding(_ bytes: [UInt8]) -> String? {
        guard bytes.starts(with: "<?xml".utf8), let end = bytes.firstIndex(of: UInt8(ascii: ">")) else { return nil }
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
