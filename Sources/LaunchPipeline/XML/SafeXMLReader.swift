import Foundation
import LaunchCore
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Parses XML into an ``XMLNode`` tree with libxml2 (through `XMLParser`), safely:
/// documents with a DOCTYPE are refused (so no external entity is ever resolved and no
/// entity-expansion bomb can run), and errors carry file, line and column.
public enum SafeXMLReader {
    /// Reads and parses the file at `path`.
    public static func read(path: String) throws -> XMLNode {
        let bytes = try FileIO.read(path)
        return try parse(bytes, file: path)
    }

    /// Parses `bytes`; `file` names the document in errors.
    public static func parse(_ bytes: [UInt8], file: String) throws(XMLError) -> XMLNode {
        // Foundation's XMLParser traps on names that are not valid UTF-8, so that is checked first.
        if let (line, column, byte) = invalidUTF8Position(in: bytes) {
            throw XMLError(file: file, line: line, column: column,
                           reason: "invalid UTF-8 (byte 0x\(String(byte, radix: 16, uppercase: true))): themes and data files must be UTF-8")
        }
        if let declared = declaredEncoding(bytes), !["utf-8", "utf8"].contains(declared.lowercased()) {
            throw XMLError(file: file, line: 1, column: 1, reason: "encoding '\(declared)' is not supported: themes and data files must be UTF-8")
        }
        if let (line, column) = doctypePosition(in: bytes) {
            throw XMLError(file: file, line: line, column: column,
                           reason: "DOCTYPE declarations are not allowed (entities are never expanded)")
        }
        let parser = XMLParser(data: Data(bytes))
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        let builder = TreeBuilder(parser: parser)
        parser.delegate = builder
        let ok = parser.parse()
        if !ok || builder.firstError != nil {
            let (code, line, column) = builder.firstError
                ?? ((parser.parserError as NSError?)?.code ?? 0, parser.lineNumber, parser.columnNumber)
            var reason = libxml2Message(code)
            if [5, 77, 85].contains(code), let open = builder.openElement {
                reason = "premature end of document: <\(open.name)> (line \(open.line)) is not closed"
            }
            throw XMLError(file: file, line: max(line, 1), column: max(column, 1), reason: reason)
        }
        guard let root = builder.root else {
            throw XMLError(file: file, line: 1, column: 1, reason: "document is empty")
        }
        return root
    }

    /// The line, column and value of the first byte that is not part of valid UTF-8, if any.
    static func invalidUTF8Position(in bytes: [UInt8]) -> (Int, Int, UInt8)? {
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

    /// The `encoding` of the XML declaration, if there is one.
    static func declaredEncoding(_ bytes: [UInt8]) -> String? {
        guard bytes.starts(with: Array("<?xml".utf8)), let end = bytes.firstIndex(of: UInt8(ascii: ">")) else { return nil }
        let declaration = String(decoding: bytes[..<end], as: UTF8.self)
        guard let range = declaration.range(of: "encoding") else { return nil }
        let rest = declaration[range.upperBound...].drop { $0 == " " || $0 == "=" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        return String(rest.dropFirst().prefix { $0 != quote })
    }

    /// The position of a `<!DOCTYPE` outside comments, if any.
    static func doctypePosition(in bytes: [UInt8]) -> (Int, Int)? {
        let doctype = Array("<!DOCTYPE".utf8), commentOpen = Array("<!--".utf8), commentClose = Array("-->".utf8)
        func matches(_ pattern: [UInt8], at i: Int) -> Bool {
            i + pattern.count <= bytes.count && bytes[i..<(i + pattern.count)].elementsEqual(pattern)
        }
        var line = 1, column = 1, i = 0, inComment = false
        while i < bytes.count {
            if inComment {
                if matches(commentClose, at: i) { inComment = false }
            } else if bytes[i] == UInt8(ascii: "<") {
                if matches(commentOpen, at: i) { inComment = true } else if matches(doctype, at: i) { return (line, column) }
            }
            if bytes[i] == UInt8(ascii: "\n") { line += 1; column = 1 } else if bytes[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        return nil
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

/// Builds the element tree from `XMLParser` callbacks and keeps the position of the first error.
private final class TreeBuilder: NSObject, XMLParserDelegate {
    private struct Open {
        var name: String
        var attributes: [String: String]
        var children: [XMLNode] = []
        var text = ""
        var line: Int
        var column: Int
    }

    private unowned let parser: XMLParser
    private var stack: [Open] = []
    var root: XMLNode?
    /// The innermost element still open, if the document ended inside one.
    var openElement: (name: String, line: Int)? { stack.last.map { ($0.name, $0.line) } }
    var firstError: (code: Int, line: Int, column: Int)?

    init(parser: XMLParser) {
        self.parser = parser
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        stack.append(Open(name: elementName, attributes: attributeDict, line: parser.lineNumber, column: parser.columnNumber))
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        guard let open = stack.popLast() else { return }
        let node = XMLNode(name: open.name, attributes: open.attributes, children: open.children,
                           text: open.text.trimmingCharacters(in: .whitespacesAndNewlines),
                           line: open.line, column: open.column)
        if stack.isEmpty { root = node } else { stack[stack.count - 1].children.append(node) }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if !stack.isEmpty { stack[stack.count - 1].text += string }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        if firstError == nil {
            firstError = ((parseError as NSError).code, parser.lineNumber, parser.columnNumber)
        }
    }
}
