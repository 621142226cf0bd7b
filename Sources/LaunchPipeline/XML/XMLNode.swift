import CXMLShim

/// One element of a parsed XML document (an ``XMLTree``), with where it stands in its file: a view
/// of the tree's arena, which makes a `String` only of what is asked for.
public struct XMLNode: Sendable {
    let tree: XMLTree
    let index: Int

    init(tree: XMLTree, index: Int) {
        self.tree = tree
        self.index = index
    }

    private var element: lp_xml_element { tree.elements[index] }

    /// The element's name (`prefix:local` for a prefixed one).
    public var name: String { tree.string(tree.names[Int(element.name)]) }

    /// `true` when the element's name is `name`, compared as UTF-8 bytes (no `String` made).
    public func isNamed(_ name: String) -> Bool {
        tree.name(element.name, is: name)
    }

    /// 1-based line of the element's start tag (where the tag ends).
    public var line: Int { Int(element.line) }

    /// 1-based column of the end of the element's start tag.
    public var column: Int { Int(element.column) }

    /// Text directly inside the element (all its text, joined), whitespace-trimmed.
    public var text: String {
        let e = element
        return String(decoding: tree.slice(start: e.text_start, length: e.text_length), as: UTF8.self)
    }

    /// The child elements, in document order.
    public var children: XMLChildren { XMLChildren(tree: tree, first: Int(element.first_child)) }

    /// Child elements named `name`.
    public func children(named name: String) -> [XMLNode] {
        children.filter { $0.isNamed(name) }
    }

    /// The first child element named `name`.
    public func child(named name: String) -> XMLNode? {
        children.first { $0.isNamed(name) }
    }

    /// How many attributes the element has.
    public var attributeCount: Int { Int(element.attribute_count) }

    /// The local name of attribute `i` (`0..<attributeCount`), in document order.
    public func attributeName(at i: Int) -> String {
        tree.string(tree.names[Int(attribute(at: i).name)])
    }

    /// `true` when attribute `i`'s local name is `name`, compared as UTF-8 bytes.
    public func attribute(at i: Int, isNamed name: String) -> Bool {
        tree.name(attribute(at: i).name, is: name)
    }

    /// The value of the attribute named `name` (its local name), or `nil`. Should two attributes
    /// share a local name (`a:x` and `b:x`), the last one's.
    public func attribute(_ name: String) -> String? {
        guard let i = attributeIndex(name) else { return nil }
        let a = attribute(at: i)
        return String(decoding: tree.slice(start: a.value_start, length: a.value_length), as: UTF8.self)
    }

    /// `true` when the element has an attribute named `name`.
    public func hasAttribute(_ name: String) -> Bool {
        attributeIndex(name) != nil
    }

    private func attribute(at i: Int) -> lp_xml_attribute {
        precondition(i >= 0 && i < attributeCount, "attribute index out of range")
        return tree.attributes[Int(element.first_attribute) + i]
    }

    private func attributeIndex(_ name: String) -> Int? {
        let e = element
        var i = Int(e.attribute_count) - 1
        while i >= 0 {
            if tree.name(tree.attributes[Int(e.first_attribute) + i].name, is: name) { return i }
            i -= 1
        }
        return nil
    }
}
