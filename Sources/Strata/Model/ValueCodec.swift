import Foundation

/// What a persistent property holds, as the store and the query translator see it.
package enum PropertyKind: Sendable {
    /// A value kept in one column of the entity's table.
    case attribute(StorageClass)
    /// A reference to one model of another (or the same) entity.
    case toOne(destination: String)
    /// References to many models of another (or the same) entity.
    case toMany(destination: String)
}

/// Converts one property's Swift values to and from their stored form.
///
/// Each codec is chosen at compile time by the overloads of `PersistentProperty.init`, so reading a property
/// never needs a dynamic cast.
package struct ValueCodec<Value>: @unchecked Sendable {
    // Closures are built from metatypes only; they capture no mutable state.
    // `@unchecked` because of the metatype; every stored closure captures nothing.
    package let kind: PropertyKind
    package let isOptional: Bool
    package let valueType: Any.Type
    /// Whether decoding is expensive or can fail (JSON, raw values), so the decoded value is cached on load.
    package let cachesDecodedValue: Bool
    package let encode: (Value) throws -> StoredValue
    package let decode: (StoredValue) -> Value?
    /// The stored value a model stands in with when its row is gone (`.null` where that decodes).
    package var placeholder: StoredValue {
        if isOptional { return .null }
        switch kind {
        case .attribute(.integer), .attribute(.unsignedInteger): return .integer(0)
        case .attribute(.real): return .real(0)
        case .attribute(.decimal): return .text("0")
        case .attribute(.text): return valueType == URL.self ? .text("about:blank") : .text("")
        case .attribute(.blob): return .blob(Array(repeating: 0, count: 16))
        case .toOne, .toMany: return .null
        }
    }
}

extension ValueCodec where Value: StorableValue {
    static var storable: ValueCodec {
        ValueCodec(
            kind: .attribute(Value.storageClass), isOptional: false, valueType: Value.self,
            cachesDecodedValue: false,
            encode: { $0.storedValue },
            decode: { Value(storedValue: $0) }
        )
    }
}

extension ValueCodec {
    static func optionalStorable<Wrapped: StorableValue>(_: Wrapped.Type) -> ValueCodec where Value == Wrapped? {
        ValueCodec(
            kind: .attribute(Wrapped.storageClass), isOptional: true, valueType: Wrapped.self,
            cachesDecodedValue: false,
            encode: { $0?.storedValue ?? .null },
            decode: { stored in
                if case .null = stored { return .some(nil) }
                return Wrapped(storedValue: stored).map { $0 }
            }
        )
    }

    static func rawRepresentable() -> ValueCodec
    where Value: RawRepresentable, Value.RawValue: StorableValue {
        ValueCodec(
            kind: .attribute(Value.RawValue.storageClass), isOptional: false, valueType: Value.self,
            cachesDecodedValue: true,
            encode: { $0.rawValue.storedValue },
            decode: { Value.RawValue(storedValue: $0).flatMap(Value.init(rawValue:)) }
        )
    }

    static func optionalRawRepresentable<Wrapped: RawRepresentable>(_: Wrapped.Type) -> ValueCodec
    where Value == Wrapped?, Wrapped.RawValue: StorableValue {
        ValueCodec(
            kind: .attribute(Wrapped.RawValue.storageClass), isOptional: true, valueType: Wrapped.self,
            cachesDecodedValue: true,
            encode: { $0?.rawValue.storedValue ?? .null },
            decode: { stored in
                if case .null = stored { return .some(nil) }
                return Wrapped.RawValue(storedValue: stored).flatMap(Wrapped.init(rawValue:)).map { $0 }
            }
        )
    }

    static func json() -> ValueCodec where Value: Codable {
        ValueCodec(
            kind: .attribute(.text), isOptional: false, valueType: Value.self,
            cachesDecodedValue: true,
            encode: { try JSONCoding.encode($0) },
            decode: { JSONCoding.decode(Value.self, from: $0) }
        )
    }

    static func optionalJSON<Wrapped: Codable>(_: Wrapped.Type) -> ValueCodec where Value == Wrapped? {
        ValueCodec(
            kind: .attribute(.text), isOptional: true, valueType: Wrapped.self,
            cachesDecodedValue: true,
            encode: { value in try value.map { try JSONCoding.encode($0) } ?? .null },
            decode: { stored in
                if case .null = stored { return .some(nil) }
                return JSONCoding.decode(Wrapped.self, from: stored).map { $0 }
            }
        )
    }
}

/// JSON text for `Codable` attribute values, with sorted keys so equal values store equal text.
enum JSONCoding {
    static func encode<T: Encodable>(_ value: T) throws -> StoredValue {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "+Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        let data = try encoder.encode(value)
        return .text(String(decoding: data, as: UTF8.self))
    }

    static func decode<T: Decodable>(_ type: T.Type, from stored: StoredValue) -> T? {
        guard case .text(let text) = stored else { return nil }
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "+Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        return try? decoder.decode(T.self, from: Data(text.utf8))
    }
}

extension ValueCodec {
    /// A relationship value, kept on the model itself: relationships are not stored by this version of Strata,
    /// and a container whose models have them refuses to open (`StrataError.invalidSchema`).
    static func relationship(_ kind: PropertyKind, isOptional: Bool, destination: Any.Type) -> ValueCodec {
        ValueCodec(
            kind: kind, isOptional: isOptional, valueType: destination,
            cachesDecodedValue: true,
            encode: { _ in .null },
            decode: { _ in nil }
        )
    }
}
