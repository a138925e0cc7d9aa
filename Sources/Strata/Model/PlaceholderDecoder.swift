import Foundation

/// A decoder that answers every request with an empty value (`""`, `0`, `false`, empty collections, `nil` for
/// optionals), so a `Decodable` type with required fields can be made without data: the value a model stands in
/// with when its row is gone and the type has no initial value to give.
package struct PlaceholderDecoder: Decoder {
    package var codingPath: [any CodingKey] = []
    package var userInfo: [CodingUserInfoKey: Any] { [:] }
    /// How many values this one is nested in: a type that holds itself (through a class or an indirect enum) has
    /// no finite empty value, and decoding gives up past ``deepestNesting``.
    private var depth = 0
    private static let deepestNesting = 32

    package init() {}

    /// A placeholder of `type`, if decoding it from empty values succeeds.
    package static func placeholder<Value>(of type: Value.Type) -> Value? {
        guard let decodable = type as? any Decodable.Type else { return nil }
        return (try? PlaceholderDecoder().decodeEmpty(decodable)) as? Value
    }

    fileprivate func decodeEmpty<T: Decodable>(_ type: T.Type) throws -> T {
        // Types whose own decoders refuse an empty string.
        if T.self == URL.self, let blank = URL(string: "about:blank") as? T { return blank }
        if T.self == UUID.self, let zero = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)) as? T {
            return zero
        }
        guard depth < Self.deepestNesting else {
            throw DecodingError.valueNotFound(
                type, DecodingError.Context(codingPath: codingPath, debugDescription: "a value that holds itself"))
        }
        var nested = self
        nested.depth += 1
        return try T(from: nested)
    }

    package func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Keyed<Key>(decoder: self))
    }

    package func unkeyedContainer() -> any UnkeyedDecodingContainer { Unkeyed(decoder: self) }

    package func singleValueContainer() -> any SingleValueDecodingContainer { Single(decoder: self) }

    private struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let decoder: PlaceholderDecoder
        var codingPath: [any CodingKey] { decoder.codingPath }
        var allKeys: [Key] { [] }

        func contains(_ key: Key) -> Bool { true }
        /// Optional fields are `nil`.
        func decodeNil(forKey key: Key) -> Bool { true }
        func decode(_ type: Bool.Type, forKey key: Key) -> Bool { false }
        func decode(_ type: String.Type, forKey key: Key) -> String { "" }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decoder.decodeEmpty(type) }
        func nestedContainer<NestedKey: CodingKey>(
            keyedBy type: NestedKey.Type, forKey key: Key
        ) -> KeyedDecodingContainer<NestedKey> {
            decoder.container(keyedBy: type)
        }
        func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedDecodingContainer { decoder.unkeyedContainer() }
        func superDecoder() -> any Decoder { decoder }
        func superDecoder(forKey key: Key) -> any Decoder { decoder }
    }

    private struct Unkeyed: UnkeyedDecodingContainer {
        let decoder: PlaceholderDecoder
        var codingPath: [any CodingKey] { decoder.codingPath }
        var count: Int? { 0 }
        var isAtEnd: Bool { true }
        var currentIndex: Int { 0 }

        mutating func decodeNil() -> Bool { true }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            throw DecodingError.valueNotFound(
                type, DecodingError.Context(codingPath: codingPath, debugDescription: "an empty placeholder list"))
        }
        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy type: NestedKey.Type
        ) -> KeyedDecodingContainer<NestedKey> {
            decoder.container(keyedBy: type)
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedDecodingContainer { decoder.unkeyedContainer() }
        mutating func superDecoder() -> any Decoder { decoder }
    }

    private struct Single: SingleValueDecodingContainer {
        let decoder: PlaceholderDecoder
        var codingPath: [any CodingKey] { decoder.codingPath }

        func decodeNil() -> Bool { false }
        func decode(_ type: Bool.Type) -> Bool { false }
        func decode(_ type: String.Type) -> String { "" }
        func decode(_ type: Double.Type) -> Double { 0 }
        func decode(_ type: Float.Type) -> Float { 0 }
        func decode(_ type: Int.Type) -> Int { 0 }
        func decode(_ type: Int8.Type) -> Int8 { 0 }
        func decode(_ type: Int16.Type) -> Int16 { 0 }
        func decode(_ type: Int32.Type) -> Int32 { 0 }
        func decode(_ type: Int64.Type) -> Int64 { 0 }
        func decode(_ type: UInt.Type) -> UInt { 0 }
        func decode(_ type: UInt8.Type) -> UInt8 { 0 }
        func decode(_ type: UInt16.Type) -> UInt16 { 0 }
        func decode(_ type: UInt32.Type) -> UInt32 { 0 }
        func decode(_ type: UInt64.Type) -> UInt64 { 0 }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decodeEmpty(type) }
    }
}

/// The first case of a `CaseIterable` type, the placeholder of an enum whose raw values have no empty one.
package func firstCase<Value>(of type: Value.Type) -> Value? {
    guard let iterable = type as? any CaseIterable.Type else { return nil }
    func first<C: CaseIterable>(_: C.Type) -> Any? { C.allCases.first }
    return first(iterable) as? Value
}

/// A value of a plain type (`_isPOD`: no references, such as every enum without payloads, or of plain payloads,
/// and structs of numbers and flags) whose bytes are all zero: the first case of an enum, zero fields of a
/// struct. The placeholder of last resort for a raw-value enum none of whose raw values is empty.
package func zeroedPlainValue<Value>(of type: Value.Type) -> Value? {
    guard _isPOD(type) else { return nil }
    let size = max(MemoryLayout<Value>.size, 1)
    let bytes = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: MemoryLayout<Value>.alignment)
    defer { bytes.deallocate() }
    bytes.initializeMemory(as: UInt8.self, repeating: 0, count: size)
    return bytes.load(as: Value.self)
}
