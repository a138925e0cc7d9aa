import Foundation
import Synchronization

/// The JSON keys a composite attribute's struct stores its fields under: its `CodingKeys` (`case city = "town"`),
/// which a key path names by the Swift property instead (`\Address.city`).
///
/// Found once per type, without parsing anything: an empty value of the type is decoded (``PlaceholderDecoder``),
/// encoded through an encoder that records the keys of its top-level container in order, and its stored
/// properties are listed with `Mirror` in declaration order. Synthesized and hand-written `Codable` code encodes
/// the fields in the order they are declared, so when both lists have the same length the n-th property is stored
/// under the n-th key. When they don't (an `encode(to:)` that skips or adds fields), a key is assumed to be the
/// property's name, as before.
enum CompositeCodingKeys {
    /// The keys of each type's stored properties, by property name (empty when the names are the keys).
    private static let cache = Mutex<[ObjectIdentifier: [String: String]]>([:])

    /// The JSON keys of `names`, a path of stored properties starting in `root`.
    static func keys(for names: [String], in root: Any.Type) -> [String] {
        var type: Any.Type? = root
        return names.map { name in
            guard let current = type else { return name }
            let (key, fieldType) = lookUp(name, in: current)
            type = fieldType
            return key
        }
    }

    /// The key property `name` of `type` is stored under, and the property's type (without `Optional`) when known.
    private static func lookUp(_ name: String, in type: Any.Type) -> (key: String, fieldType: Any.Type?) {
        guard let value = emptyValue(of: type) else { return (name, nil) }
        let children = Array(Mirror(reflecting: value).children)
        let fieldType = children.first { $0.label == name }.map { unwrappedType(of: $0.value) }
        let keys = cache.withLock { $0[ObjectIdentifier(type)] } ?? record(value, children: children, type: type)
        return (keys[name] ?? name, fieldType)
    }

    private static func record(_ value: Any, children: [Mirror.Child], type: Any.Type) -> [String: String] {
        var keys: [String: String] = [:]
        if let encodable = value as? any Encodable {
            let recorder = KeyRecorder()
            try? encodable.encode(to: recorder)
            let labels = children.compactMap(\.label)
            if labels.count == recorder.keys.count {
                for (label, key) in zip(labels, recorder.keys) where label != key { keys[label] = key }
            }
        }
        cache.withLock { $0[ObjectIdentifier(type)] = keys }
        return keys
    }

    private static func emptyValue(of type: Any.Type) -> Any? {
        PlaceholderDecoder.placeholder(of: type)
    }

    /// The type of a field's value, looking through `Optional` (whose empty value is `nil`, with no fields).
    private static func unwrappedType(of value: Any) -> Any.Type {
        CompositeScalar.unwrapped(Swift.type(of: value))
    }
}

/// An encoder that records the keys of the top-level keyed container, in the order they are encoded; nested
/// values are encoded into nothing.
private final class KeyRecorder: Encoder {
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    private(set) var keys: [String] = []
    private var depth = 0

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        depth += 1
        return KeyedEncodingContainer(Keyed<Key>(recorder: self, records: depth == 1))
    }
    func unkeyedContainer() -> any UnkeyedEncodingContainer { Ignored(recorder: self) }
    func singleValueContainer() -> any SingleValueEncodingContainer { Ignored(recorder: self) }

    fileprivate func note(_ key: some CodingKey) { keys.append(key.stringValue) }

    private struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let recorder: KeyRecorder
        let records: Bool
        var codingPath: [any CodingKey] { [] }

        private func note(_ key: Key) { if records { recorder.note(key) } }
        mutating func encodeNil(forKey key: Key) { note(key) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) { note(key) }
        mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) { note(key) }
        mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) { note(key) }
        mutating func encodeIfPresent(_ value: String?, forKey key: Key) { note(key) }
        mutating func encodeIfPresent(_ value: Double?, forKey key: Key) { note(key) }
        mutating func encodeIfPresent(_ value: Int?, forKey key: Key) { note(key) }
        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type, forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            note(key)
            return KeyedEncodingContainer(Keyed<NestedKey>(recorder: recorder, records: false))
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            note(key)
            return Ignored(recorder: recorder)
        }
        mutating func superEncoder() -> any Encoder { recorder }
        mutating func superEncoder(forKey key: Key) -> any Encoder {
            note(key)
            return recorder
        }
    }

    /// Takes values without recording anything.
    private struct Ignored: UnkeyedEncodingContainer, SingleValueEncodingContainer {
        let recorder: KeyRecorder
        var codingPath: [any CodingKey] { [] }
        var count: Int { 0 }

        mutating func encodeNil() {}
        mutating func encode<T: Encodable>(_ value: T) {}
        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type
        ) -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(Keyed<NestedKey>(recorder: recorder, records: false))
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }
        mutating func superEncoder() -> any Encoder { recorder }
    }
}
