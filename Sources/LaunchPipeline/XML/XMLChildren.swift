/// The child elements of an ``XMLNode``, in document order: a walk along the tree's next-sibling
/// links, allocating nothing.
public struct XMLChildren: Sequence, Sendable {
    let tree: XMLTree
    /// The first child's index, or -1.
    let first: Int

    /// Walks the children one by one.
    public struct Iterator: IteratorProtocol {
        let tree: XMLTree
        /// The next child's index, or -1 at the end.
        var index: Int

        /// The next child, or `nil` after the last.
        public mutating func next() -> XMLNode? {
            guard index >= 0 else { return nil }
            let node = XMLNode(tree: tree, index: index)
            index = Int(tree.elements[index].next_sibling)
            return node
        }
    }

    /// A walk from the first child.
    public func makeIterator() -> Iterator {
        Iterator(tree: tree, index: first)
    }

    /// `true` when the element has no child element.
    public var isEmpty: Bool { first < 0 }
}
