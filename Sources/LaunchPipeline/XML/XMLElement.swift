/// One element of a parsed XML document, with where it stands in its file.
public final class XMLNode: Sendable {
    public let name: String
    public let attributes: [String: String]
    public let children: [XMLNode]
    /// Text directly inside the element, whitespace-trimmed.
    public let text: String
    /// 1-based line of the element's start tag (where the tag ends).
    public let line: Int
    /// 1-based column of the end of the element's start tag.
    public let column: Int

    init(name: String, attributes: [String: String], children: [XMLNode], text: String, line: Int, column: Int) {
        self.name = name
        self.attributes = attributes
        self.children = children
        self.text = text
        self.line = line
        self.column = column
    }

    /// Child elements named `name`.
    public func children(named name: String) -> [XMLNode] {
        children.filter { $0.name == name }
    }

    /// The first child element named `name`.
    public func child(named name: String) -> XMLNode? {
        children.first { $0.name == name }
    }
}
