/// A problem in an XML file, at a line and column: syntax errors from libxml2, refusals (DOCTYPE,
/// entity declarations, nesting, encoding) and meaning errors (unknown style, bad number) found
/// while reading the elements.
public struct XMLError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What kind of problem, for callers and tests that tell them apart.
    public enum Kind: Equatable, Sendable {
        /// Not well-formed XML (libxml2's own error).
        case malformed
        /// Not UTF-8, or another encoding declared.
        case encoding
        /// A DOCTYPE, wherever it stands: refused inside the parser.
        case doctype
        /// An entity declaration or an entity expansion that libxml2's limits refused.
        case entity
        /// Elements nested deeper than ``SafeXMLReader/maximumDepth``.
        case tooDeep
        /// Well-formed, but not what the schema allows (unknown element, bad value, out of range).
        case invalid
    }

    public var file: String
    public var line: Int
    public var column: Int
    public var reason: String
    public var kind: Kind

    public init(file: String, line: Int, column: Int, reason: String, kind: Kind = .invalid) {
        self.file = file
        self.line = line
        self.column = column
        self.reason = reason
        self.kind = kind
    }

    /// An error about `node`.
    public init(file: String, node: XMLNode, _ reason: String) {
        self.init(file: file, line: node.line, column: node.column, reason: reason)
    }

    /// `file:line:column: reason`, the form editors and terminals link to.
    public var description: String { "\(file):\(line):\(column): \(reason)" }
}
