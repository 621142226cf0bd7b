import CXMLShim

/// A parsed XML document in one flat arena, as the C shim built it from libxml2's SAX2 callbacks:
/// the elements in document order (the root first), linked by first-child and next-sibling indexes;
/// each element's attributes a range of one array; element and attribute names interned once per
/// parse; names, attribute values and text as byte ranges of one buffer. Nothing is a `String`
/// until a reader asks for one (``XMLNode/name``, ``XMLNode/attribute(_:)``, ``XMLNode/text``), and
/// names compare as bytes (``XMLNode/isNamed(_:)``).
///
/// Immutable once built, so it is `Sendable`; it frees the arena when the last ``XMLNode`` of it goes.
public final class XMLTree: @unchecked Sendable {
    private let document: UnsafeMutablePointer<lp_xml_document>
    let elements: UnsafeBufferPointer<lp_xml_element>
    let attributes: UnsafeBufferPointer<lp_xml_attribute>
    let names: UnsafeBufferPointer<lp_xml_range>
    let bytes: UnsafeBufferPointer<UInt8>

    /// Takes ownership of `document` (from `lp_xml_parse_document`).
    init(_ document: UnsafeMutablePointer<lp_xml_document>) {
        self.document = document
        let d = document.pointee
        elements = UnsafeBufferPointer(start: d.elements, count: Int(d.element_count))
        attributes = UnsafeBufferPointer(start: d.attributes, count: Int(d.attribute_count))
        names = UnsafeBufferPointer(start: d.names, count: Int(d.name_count))
        bytes = UnsafeBufferPointer(start: UnsafeRawPointer(d.bytes)?.assumingMemoryBound(to: UInt8.self), count: Int(d.byte_count))
    }

    deinit {
        lp_xml_document_free(document)
    }

    /// The document's root element (a tree is only made of a document with one).
    public var root: XMLNode { XMLNode(tree: self, index: 0) }

    /// How many elements the document has.
    public var elementCount: Int { elements.count }

    /// After a failed parse: the innermost element still open, if any.
    var openElement: XMLNode? {
        let index = Int(document.pointee.open_element)
        return elements.indices.contains(index) ? XMLNode(tree: self, index: index) : nil
    }

    /// The bytes of `range` (offsets the shim made, within `bytes`).
    func slice(_ range: lp_xml_range) -> UnsafeBufferPointer<UInt8> {
        slice(start: range.start, length: range.length)
    }

    func slice(start: Int32, length: Int32) -> UnsafeBufferPointer<UInt8> {
        guard length > 0, let base = bytes.baseAddress else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: base + Int(start), count: Int(length))
    }

    /// The string of `range` (UTF-8 that libxml2 has checked).
    func string(_ range: lp_xml_range) -> String {
        String(decoding: slice(range), as: UTF8.self)
    }

    /// `true` when name `id` is `name`, byte for byte.
    func name(_ id: Int32, is name: String) -> Bool {
        let range = names[Int(id)]
        // Lengths first (a native string knows its UTF-8 count): most names differ there.
        guard name.utf8.count == Int(range.length) else { return false }
        let stored = slice(range)
        var i = 0
        for byte in name.utf8 {
            if stored[i] != byte { return false }
            i += 1
        }
        return true
    }
}
