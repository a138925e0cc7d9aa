import Foundation

/// The values of one model as a custom ``DataStore`` reads and writes them: what the container hands a store
/// to save and what the store answers fetches with. Snapshots are `Codable`, so a store may write them as they
/// are (Apple's JSON store sample encodes an array of them).
///
/// Strata builds ``DefaultSnapshot``s; a store declaring another snapshot type is refused when its container
/// opens.
public protocol DataStoreSnapshot: Codable, Sendable {
    /// The identifier of the model the snapshot holds the values of.
    var persistentIdentifier: PersistentIdentifier { get }
    /// The same values under another identifier (an inserted model's permanent one), with the identifiers of
    /// related models replaced as `remappedIdentifiers` says.
    func copy(
        persistentIdentifier: PersistentIdentifier, remappedIdentifiers: [PersistentIdentifier: PersistentIdentifier]?
    ) -> Self
}

/// The snapshot Strata gives custom stores: a model's identifier and the value of each of its properties by
/// name — attributes as stored values, to-one relationships as the related model's identifier, to-many
/// relationships as the related models' identifiers. It encodes as one keyed container: `persistentIdentifier`,
/// then a key per property.
public struct DefaultSnapshot: DataStoreSnapshot, Hashable {
    /// The identifier of the model.
    public let persistentIdentifier: PersistentIdentifier
    /// The value of each property, by name.
    package var values: [String: PropertyValue]

    /// One property's value.
    package enum PropertyValue: Hashable, Sendable {
        /// An attribute as stored (`.null` for `nil`).
        case attribute(StoredValue)
        /// A to-one relationship: the related model, or `nil`.
        case toOne(PersistentIdentifier?)
        /// A to-many relationship: the related models.
        case toMany([PersistentIdentifier])
    }

    package init(persistentIdentifier: PersistentIdentifier, values: [String: PropertyValue]) {
        self.persistentIdentifier = persistentIdentifier
        self.values = values
    }

    /// The same values under another identifier, with related models' identifiers remapped.
    public func copy(
        persistentIdentifier: PersistentIdentifier,
        remappedIdentifiers: [PersistentIdentifier: PersistentIdentifier]? = nil
    ) -> DefaultSnapshot {
        guard let remapped = remappedIdentifiers, !remapped.isEmpty else {
            return DefaultSnapshot(persistentIdentifier: persistentIdentifier, values: values)
        }
        return DefaultSnapshot(
            persistentIdentifier: persistentIdentifier,
            values: values.mapValues { value in
                switch value {
                case .attribute: value
                case .toOne(let target): .toOne(target.map { remapped[$0] ?? $0 })
                case .toMany(let targets): .toMany(targets.map { remapped[$0] ?? $0 })
                }
            })
    }
}

extension DefaultSnapshot {
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    private static let identifierKey = "persistentIdentifier"

    /// Decodes a snapshot encoded by ``encode(to:)``.
    /// - Throws: `DecodingError` when the container isn't one.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        persistentIdentifier = try container.decode(
            PersistentIdentifier.self, forKey: Key(stringValue: Self.identifierKey))
        var values: [String: PropertyValue] = [:]
        for key in container.allKeys where key.stringValue != Self.identifierKey {
            values[key.stringValue] = try container.decode(PropertyValue.self, forKey: key)
        }
        self.values = values
    }

    /// Encodes the identifier and every property's value.
    /// - Throws: the encoder's errors.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(persistentIdentifier, forKey: Key(stringValue: Self.identifierKey))
        for (name, value) in values {
            try container.encode(value, forKey: Key(stringValue: name))
        }
    }
}

// Integers and text encode as themselves and nil as null; the rest carry a tag, so a value decodes back to the
// same storage class (a real `5.0` doesn't come back an integer) and JSON can hold non-finite reals.
extension DefaultSnapshot.PropertyValue: Codable {
    private enum Tag: String, CodingKey {
        case real, data, model, models
    }

    package init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .attribute(.null)
        } else if let text = try? single.decode(String.self) {
            self = .attribute(.text(text))
        } else if let integer = try? single.decode(Int64.self) {
            self = .attribute(.integer(integer))
        } else {
            let container = try decoder.container(keyedBy: Tag.self)
            if container.contains(.real) {
                if let real = try? container.decode(Double.self, forKey: .real) {
                    self = .attribute(.real(real))
                } else {
                    let text = try container.decode(String.self, forKey: .real)
                    guard let real = Double(text) else {
                        throw DecodingError.dataCorruptedError(
                            forKey: .real, in: container, debugDescription: "\(text) is not a number")
                    }
                    self = .attribute(.real(real))
                }
            } else if container.contains(.data) {
                self = .attribute(.blob(Array(try container.decode(Data.self, forKey: .data))))
            } else if container.contains(.models) {
                self = .toMany(try container.decode([PersistentIdentifier].self, forKey: .models))
            } else {
                self = .toOne(try container.decodeIfPresent(PersistentIdentifier.self, forKey: .model))
            }
        }
    }

    package func encode(to encoder: any Encoder) throws {
        switch self {
        case .attribute(.null):
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .attribute(.integer(let integer)):
            var single = encoder.singleValueContainer()
            try single.encode(integer)
        case .attribute(.text(let text)):
            var single = encoder.singleValueContainer()
            try single.encode(text)
        case .attribute(.real(let real)):
            var container = encoder.container(keyedBy: Tag.self)
            if real.isFinite {
                try container.encode(real, forKey: .real)
            } else {
                try container.encode(String(real), forKey: .real)
            }
        case .attribute(.blob(let bytes)):
            var container = encoder.container(keyedBy: Tag.self)
            try container.encode(Data(bytes), forKey: .data)
        case .toOne(let target):
            var container = encoder.container(keyedBy: Tag.self)
            try container.encode(target, forKey: .model)
        case .toMany(let targets):
            var container = encoder.container(keyedBy: Tag.self)
            try container.encode(targets, forKey: .models)
        }
    }
}
