import LaunchCore

/// A table of named values loaded from a data XML file: unit conversions, constants.
///
/// ```xml
/// <data kind="conversions">
///   <group name="length">
///     <item name="metre" symbol="m" value="1"/>
///   </group>
/// </data>
/// ```
public struct DataTable: Equatable, Sendable {
    public struct Item: Equatable, Sendable {
        public var group: String
        public var name: String
        public var symbol: String
        public var value: Double
    }

    public var kind: String
    public var items: [Item]

    /// Reads and parses the data file at `path`.
    public static func load(path: String) throws -> DataTable {
        try parse(try FileIO.read(path, limit: .data), file: path)
    }

    /// Parses data XML; `file` names it in errors.
    public static func parse(_ bytes: [UInt8], file: String) throws(PipelineError) -> DataTable {
        let root = try SafeXMLReader.parse(bytes, file: file).root
        guard root.isNamed("data") else { throw PipelineError.xml(file: file, node: root, "root element must be <data>, not <\(root.name)>") }
        let attributes = try AttributeReader(root, file: file, allowed: ["kind"])
        var items: [Item] = []
        for group in root.children {
            guard group.isNamed("group") else {
                throw PipelineError.xml(file: file, node: group, "unknown element <\(group.name)> in <data> (expected <group>)")
            }
            let g = try AttributeReader(group, file: file, allowed: ["name"])
            let groupName = try g.string("name")
            for item in group.children {
                guard item.isNamed("item") else {
                    throw PipelineError.xml(file: file, node: item, "unknown element <\(item.name)> in <group> (expected <item>)")
                }
                let a = try AttributeReader(item, file: file, allowed: ["name", "symbol", "value"])
                items.append(
                    Item(
                        group: groupName, name: try a.string("name"), symbol: a.optionalString("symbol") ?? "",
                        value: try a.double("value", unbounded: true)))
            }
        }
        return DataTable(kind: attributes.optionalString("kind") ?? "data", items: items)
    }
}
