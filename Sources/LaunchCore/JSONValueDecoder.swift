/// Decodes a `Decodable` model from a ``JSONValue`` (what ``JSONParser`` reads), without Foundation:
/// the result schema's `Codable` model is read through the project's own JSON reader.
///
/// It decodes as Foundation's JSON decoder does with its default strategies (keys as written,
/// numbers that must fit the type exactly), and throws the standard library's `DecodingError`
/// with the coding path, so callers word a missing key or a wrong type as before.
public struct JSONValueDecoder {
    public init() {}

    /// The `T` that `bytes` hold (parsed by ``JSONParser``).
    public func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        try decode(type, from: try JSONParser.parse(bytes))
    }

    /// The `T` that `value` holds.
    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try T(from: ValueDecoder(value: value, codingPath: []))
    }
}

/// A key of an array element or of a nested coder, for coding paths.
private struct PathKey: CodingKey {
    var stringValue: String
    var intValue: Int?

    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) {
        self.stringValue = "Index \(intValue)"
        self.intValue = intValue
    }
    static let superKey = PathKey(stringValue: "super")
}

/// The decoder of one value.
private struct ValueDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard let object = value.object else { throw mismatch([String: Any].self, value, codingPath) }
        return KeyedDecodingContainer(KeyedContainer<Key>(object: object, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard let array = value.array else { throw mismatch([Any].self, value, codingPath) }
        return UnkeyedContainer(items: array, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleValue(value: value, codingPath: codingPath) }
}

extension JSONValue {
    /// Whether this is `null`.
    fileprivate var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

/// The type mismatch for `value` where `type` was expected.
private func mismatch(_ type: Any.Type, _ value: JSONValue, _ path: [any CodingKey]) -> DecodingError {
    if case .null = value {
        return .valueNotFound(type, .init(codingPath: path, debugDescription: "Cannot get \(type) -- found null value instead"))
    }
    return .typeMismatch(type, .init(codingPath: path, debugDescription: "Expected to decode \(type) but found \(value.kindDescription) instead."))
}

/// Reads scalars out of a value: shared by the three kinds of container.
private enum Scalar {
    static func decode<T: Decodable>(_ type: T.Type, _ value: JSONValue, _ path: [any CodingKey]) throws -> T {
        switch type {
        case is Bool.Type:
            guard let bool = value.bool else { throw mismatch(type, value, path) }
            return bool as! T
        case is String.Type:
            guard let string = value.string else { throw mismatch(type, value, path) }
            return string as! T
        case is Double.Type: return try number(type, value, path) as! T
        case is Float.Type: return Float(try number(type, value, path)) as! T
        case is Int.Type: return try integer(Int.self, value, path) as! T
        case is Int64.Type: return try integer(Int64.self, value, path) as! T
        case is Int32.Type: return try integer(Int32.self, value, path) as! T
        case is UInt64.Type: return try integer(UInt64.self, value, path) as! T
        case is UInt32.Type: return try integer(UInt32.self, value, path) as! T
        case is UInt.Type: return try integer(UInt.self, value, path) as! T
        default: return try T(from: ValueDecoder(value: value, codingPath: path))
        }
    }

    static func number(_ type: Any.Type, _ value: JSONValue, _ path: [any CodingKey]) throws -> Double {
        guard let number = value.number else { throw mismatch(type, value, path) }
        return number
    }

    /// A whole number that fits `T` exactly (its text is read when it is past a `Double`'s exact range).
    static func integer<T: FixedWidthInteger>(_ type: T.Type, _ value: JSONValue, _ path: [any CodingKey]) throws -> T {
        guard case .number(let number) = value else { throw mismatch(type, value, path) }
        if let exact = T(number.text) ?? T(exactly: number.value) { return exact }
        throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: "Parsed JSON number <\(number.text)> does not fit in \(type)."))
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let object: JSONValue.Object
    let codingPath: [any CodingKey]

    var allKeys: [Key] { object.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }

    func value(_ key: Key) throws -> JSONValue {
        guard let value = object[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: codingPath, debugDescription: "No value associated with key \(key.stringValue) (\"\(key.stringValue)\")."))
        }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool { try value(key).isNull }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try Scalar.decode(type, try value(key), codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try ValueDecoder(value: try value(key), codingPath: codingPath + [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try ValueDecoder(value: try value(key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        ValueDecoder(value: object[PathKey.superKey.stringValue] ?? .null, codingPath: codingPath + [PathKey.superKey])
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ValueDecoder(value: object[key.stringValue] ?? .null, codingPath: codingPath + [key])
    }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let items: [JSONValue]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(items: [JSONValue], codingPath: [any CodingKey]) {
        self.items = items
        self.codingPath = codingPath
    }

    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    /// The next item and its path, without moving on.
    func next(_ type: Any.Type) throws -> (JSONValue, [any CodingKey]) {
        let path = codingPath + [PathKey(intValue: currentIndex)]
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, .init(codingPath: path, debugDescription: "Unkeyed container is at end."))
        }
        return (items[currentIndex], path)
    }

    mutating func decodeNil() throws -> Bool {
        let (item, _) = try next(Never.self)
        if item.isNull { currentIndex += 1 }
        return item.isNull
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (item, path) = try next(type)
        let value = try Scalar.decode(type, item, path)
        currentIndex += 1
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let (item, path) = try next(type)
        let container = try ValueDecoder(value: item, codingPath: path).container(keyedBy: type)
        currentIndex += 1
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (item, path) = try next([Any].self)
        let container = try ValueDecoder(value: item, codingPath: path).unkeyedContainer()
        currentIndex += 1
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let (item, path) = try next(JSONValue.self)
        currentIndex += 1
        return ValueDecoder(value: item, codingPath: path)
    }
}

private struct SingleValue: SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { value.isNull }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try Scalar.decode(type, value, codingPath) }
}
