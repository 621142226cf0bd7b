/// A JSON value as ``JSONParser`` reads it: objects keep their keys in the order written, numbers
/// keep their text as written beside its value (whole numbers are exact up to 2^53).
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Number)
    case string(String)
    case array([JSONValue])
    case object(Object)

    /// A number: its text as written (`-0`, `1.50`, `2e3`) and its value, always finite. Numbers
    /// are equal when their values are (`1` and `1.0`).
    public struct Number: Equatable, Sendable {
        public let text: String
        public let value: Double

        public static func == (lhs: Number, rhs: Number) -> Bool { lhs.value == rhs.value }

        /// A number written as `text` (valid JSON number text whose value is `value`).
        public init(text: String, value: Double) {
            self.text = text
            self.value = value
        }

        /// A whole number, written in decimal.
        public init(_ value: Int) {
            self.init(text: String(value), value: Double(value))
        }
    }

    /// An object: its keys in order, each once, and their values. Two objects are equal when they
    /// have the same keys with equal values, in any order.
    public struct Object: Equatable, Sendable {
        /// The keys in the order they were written or added.
        public private(set) var keys: [String] = []
        private var values: [String: JSONValue] = [:]

        public init() {}

        public var count: Int { keys.count }

        public static func == (lhs: Object, rhs: Object) -> Bool { lhs.values == rhs.values }

        /// The value of `key`; setting `nil` removes the key, setting a new key appends it.
        public subscript(key: String) -> JSONValue? {
            get { values[key] }
            set {
                if let newValue {
                    if values.updateValue(newValue, forKey: key) == nil { keys.append(key) }
                } else if values.removeValue(forKey: key) != nil {
                    keys.removeAll { $0 == key }
                }
            }
        }
    }

    /// The object, or `nil` for any other value.
    public var object: Object? {
        if case .object(let object) = self { return object }
        return nil
    }

    /// The array, or `nil` for any other value.
    public var array: [JSONValue]? {
        if case .array(let array) = self { return array }
        return nil
    }

    /// The string, or `nil` for any other value.
    public var string: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    /// The boolean, or `nil` for any other value.
    public var bool: Bool? {
        if case .bool(let bool) = self { return bool }
        return nil
    }

    /// The number's value, or `nil` for any other value.
    public var number: Double? {
        if case .number(let number) = self { return number.value }
        return nil
    }

    /// `"a string"`, `"an object"`, `"null"`, …: the kind of value, for error messages.
    public var kindDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
