/// Writes a ``JSONValue`` as JSON text: pretty printed, two spaces a level, keys sorted, numbers as
/// they were written, so the same value always gives the same bytes.
public enum JSONWriter {
    /// `value` as pretty-printed JSON text with sorted keys, ending with a line break.
    public static func pretty(_ value: JSONValue) -> String {
        var out = ""
        write(value, indent: "", into: &out)
        return out + "\n"
    }

    private static func write(_ value: JSONValue, indent: String, into out: inout String) {
        switch value {
        case .null: out += "null"
        case .bool(let bool): out += bool ? "true" : "false"
        case .number(let number): out += number.text
        case .string(let string): out += JSONText.quoted(string)
        case .array(let items):
            guard !items.isEmpty else { out += "[]"; return }
            let inner = indent + "  "
            out += "[\n"
            for (index, item) in items.enumerated() {
                out += inner
                write(item, indent: inner, into: &out)
                out += index + 1 < items.count ? ",\n" : "\n"
            }
            out += indent + "]"
        case .object(let object):
            guard object.count > 0 else { out += "{}"; return }
            let inner = indent + "  "
            out += "{\n"
            let keys = object.keys.sorted()
            for (index, key) in keys.enumerated() {
                out += inner + JSONText.quoted(key) + ": "
                write(object[key] ?? .null, indent: inner, into: &out)
                out += index + 1 < keys.count ? ",\n" : "\n"
            }
            out += indent + "}"
        }
    }
}
