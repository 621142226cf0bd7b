/// A problem in an XML file, at a line and column: syntax errors from libxml2 and
/// meaning errors (unknown style, bad number) found while reading the elements.
public struct XMLError: Error, Equatable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int
    public var reason: String

    public init(file: String, line: Int, column: Int, reason: String) {
        self.file = file
        self.line = line
        self.column = column
        self.reason = reason
    }

    /// An error about `node`.
    public init(file: String, node: XMLNode, _ reason: String) {
        self.init(file: file, line: node.line, column: node.column, reason: reason)
    }

    /// `file:line:column: reason`, the form editors and terminals link to.
    public var description: String { "\(file):\(line):\(column): \(reason)" }
}
