/// Reads one group's keys and aggregates in order, for the readers an ``AggregateDescriptor`` builds from its
/// parameter packs.
package final class AggregateRowReader {
    private let keys: [(value: StoredValue, property: any AnyPersistentProperty, name: String)]
    private let readings: [AggregateReading]
    private let entity: Schema.Entity
    private var nextKeyIndex = 0
    private var nextReadingIndex = 0

    package init(
        keys: [(value: StoredValue, property: any AnyPersistentProperty, name: String)],
        readings: [AggregateReading], entity: Schema.Entity
    ) {
        self.keys = keys
        self.readings = readings
        self.entity = entity
    }

    /// The next group key as `K` (an optional `K` is `nil` for a null key).
    /// - Throws: `StrataError.invalidStoredValue` when the stored key doesn't decode as `K`.
    package func nextKey<K>(_: K.Type) throws -> K {
        let key = keys[nextKeyIndex]
        nextKeyIndex += 1
        if key.value == .null, let none = (K.self as? any NilRepresentable.Type)?.nilValue as? K { return none }
        if let decoded = key.property.decodeAny(key.value) {
            if let value = decoded as? K { return value }
            if let optional = decoded as? any OptionalProtocol, let value = optional.wrappedValue as? K {
                return value
            }
        }
        throw StrataError.invalidStoredValue(entity: entity.name, property: key.name, found: "\(key.value)")
    }

    /// The next group key decoded as its attribute's own type; `nil` for a null key.
    /// - Throws: `StrataError.invalidStoredValue` when the stored key doesn't decode.
    package func nextKeyValue() throws -> Any? {
        let key = keys[nextKeyIndex]
        nextKeyIndex += 1
        if key.value == .null { return nil }
        guard let decoded = key.property.decodeAny(key.value) else {
            throw StrataError.invalidStoredValue(entity: entity.name, property: key.name, found: "\(key.value)")
        }
        if let optional = decoded as? any OptionalProtocol { return optional.wrappedValue }
        return decoded
    }

    /// The next aggregate, read by `read`.
    /// - Throws: what `read` throws.
    package func nextValue<A>(_ read: (AggregateReading) throws -> A) throws -> A {
        let reading = readings[nextReadingIndex]
        nextReadingIndex += 1
        return try read(reading)
    }
}

/// An optional type's `nil`, reached through a metatype held as `Any.Type`.
package protocol NilRepresentable {
    static var nilValue: Self { get }
}

extension Optional: NilRepresentable {
    package static var nilValue: Self { nil }
}
