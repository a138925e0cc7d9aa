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
    /// What the keys of a path need to know of one type: the keys its properties are stored under, by property
    /// name (only those that differ), and each property's type without `Optional`.
    private struct Layout {
        var keys: [String: String] = [:]
        var fieldTypes: [String: Any.Type] = [:]
    }

    /// Each type's layout, found once (empty for a type no empty value can be made of).
    private static let cache = Mutex<[ObjectIdentifier: Layout]>([:])

    /// The JSON keys of `names`, a path of stored properties starting in `root`.
    static func keys(for names: [String], in root: Any.Type) -> [String] {
        var type: Any.Type? = root
        return names.map { name in
            guard let current = type else { return name }
            let layout = layout(of: current)
            type = layout.fieldTypes[name]
            return layout.keys[name] ?? name
        }
    }

    private static func layout(of type: Any.Type) -> Layout {
        if let known = cache.withLock({ $0[ObjectIdentifier(type)] }) { return known }
        var layout = Layout()
        if let value = PlaceholderDecoder.placeholder(of: type) {
            let children = Array(Mirror(reflecting: value).children)
            for child in children {
                // An optional field's empty value is `nil`, with no fields: its type is looked through.
                if let label = child.label {
                    layout.fieldTypes[label] = CompositeScalar.unwrapped(Swift.type(of: child.value))
                }
            }
            if let encodable = value as? any Encodable {
                let recorder = KeyRecorder()
                try? encodable.encode(to: recorder)
                let labels = children.compactMap(\.label)
                if labels.count == recorder.keys.count {
                    for (label, key) in zip(labels, recorder.keys) where label != key { layout.keys[label] = key }
                }
            }
        }
        cache.withLock { $0[ObjectIdentifier(type)] = layout }
        return layout
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
