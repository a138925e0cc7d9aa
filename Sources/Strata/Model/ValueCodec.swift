import Foundation

/// What a persistent property holds, as the store and the query translator see it.
@usableFromInline
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
///
/// The factories are `@inlinable` so the closures are specialized where the `@Model` macro declares the property:
/// reading a value then runs concrete code, with no generic metadata lookups.
@usableFromInline
package struct ValueCodec<Value>: @unchecked Sendable {
    // `@unchecked` because of the metatype; every stored closure captures nothing.
    @usableFromInline package let kind: PropertyKind
    @usableFromInline package let isOptional: Bool
    @usableFromInline package let valueType: Any.Type
    /// Whether decoding is expensive or can fail (JSON, raw values), so the decoded value is cached on load.
    @usableFromInline package let cachesDecodedValue: Bool
    /// Whether values are stored as their ``StorableValue`` stored form (optionals as `NULL` for `nil`), so the
    /// typed accessors may encode and decode them in place instead of through `encode` and `decode`.
    @usableFromInline package let usesStorableForm: Bool
    /// Whether values are stored as JSON text through their `Codable` conformance (a composite attribute).
    @usableFromInline package let storesJSON: Bool
    /// A cheap check that a stored value decodes, used to validate rows as they load.
    @usableFromInline package let check: StoredValueCheck
    @usableFromInline package let encode: (Value) throws -> StoredValue
    @usableFromInline package let decode: (StoredValue) -> Value?

    @usableFromInline
    package init(
        kind: PropertyKind, isOptional: Bool, valueType: Any.Type, cachesDecodedValue: Bool,
        usesStorableForm: Bool = false, storesJSON: Bool = false, check: StoredValueCheck = .decode,
        encode: @escaping (Value) throws -> StoredValue, decode: @escaping (StoredValue) -> Value?
    ) {
        self.kind = kind
        self.isOptional = isOptional
        self.valueType = valueType
        self.cachesDecodedValue = cachesDecodedValue
        self.usesStorableForm = usesStorableForm
        self.storesJSON = storesJSON
        self.check = check
        self.encode = encode
        self.decode = decode
    }

    /// Stored values a model stands in with when its row is gone, most likely first: an empty value of the
    /// column's kind, then forms that common raw-value enums and Codable types decode from (`0`, `""`, `{}`, `[]`).
    @usableFromInline package var placeholders: [StoredValue] {
        if isOptional { return [.null] }
        let empty: StoredValue
        switch kind {
        case .attribute(.integer), .attribute(.unsignedInteger): empty = .integer(0)
        case .attribute(.real): empty = .real(0)
        case .attribute(.decimal): empty = .text("0")
        case .attribute(.text): empty = valueType == URL.self ? .text("about:blank") : .text("")
        case .attribute(.blob): empty = .blob(Array(repeating: 0, count: 16))
        case .toOne, .toMany: return [.null]
        }
        return [
            empty, .integer(0), .integer(1), .text(""), .text("{}"), .text("[]"), .text("\"\""), .text("0"),
            .text("false"), .blob([]),
        ]
    }
}

extension ValueCodec where Value: StorableValue {
    @inlinable
    static var storable: ValueCodec {
        ValueCodec(
            kind: .attribute(Value.storageClass), isOptional: false, valueType: Value.self,
            cachesDecodedValue: false, usesStorableForm: true, check: StoredValueCheck(for: Value.self),
            encode: { $0.storedValue },
            decode: { Value(storedValue: $0) }
        )
    }
}

extension ValueCodec {
    @inlinable
    static func optionalStorable<Wrapped: StorableValue>(_: Wrapped.Type) -> ValueCodec where Value == Wrapped? {
        ValueCodec(
            kind: .attribute(Wrapped.storageClass), isOptional: true, valueType: Wrapped.self,
            cachesDecodedValue: false, usesStorableForm: true, check: StoredValueCheck(for: Wrapped.self),
            encode: { $0?.storedValue ?? .null },
            decode: { stored in
                if case .null = stored { return .some(nil) }
                return Wrapped(storedValue: stored).map { $0 }
            }
        )
    }

    @inlinable
    static func rawRepresentable() -> ValueCodec
    where Value: RawRepresentable, Value.RawValue: StorableValue {
        ValueCodec(
            kind: .attribute(Value.RawValue.storageClass), isOptional: false, valueType: Value.self,
            cachesDecodedValue: true,
            encode: { $0.rawValue.storedValue },
            decode: { Value.RawValue(storedValue: $0).flatMap(Value.init(rawValue:)) }
        )
    }

    @inlinable
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

    @inlinable
    static func json() -> ValueCodec where Value: Codable {
        ValueCodec(
            kind: .attribute(.text), isOptional: false, valueType: Value.self,
            cachesDecodedValue: true, storesJSON: true,
            encode: { try JSONCoding.encode($0) },
            decode: { JSONCoding.decode(Value.self, from: $0) }
        )
    }

    @inlinable
    static func optionalJSON<Wrapped: Codable>(_: Wrapped.Type) -> ValueCodec where Value == Wrapped? {
        ValueCodec(
            kind: .attribute(.text), isOptional: true, valueType: Wrapped.self,
            cachesDecodedValue: true, storesJSON: true,
            encode: { value in try value.map { try JSONCoding.encode($0) } ?? .null },
            decode: { stored in
                if case .null = stored { return .some(nil) }
                return JSONCoding.decode(Wrapped.self, from: stored).map { $0 }
            }
        )
    }
}

/// JSON text for `Codable` attribute values, with sorted keys so equal values store equal text.
@usableFromInline
enum JSONCoding {
    @usableFromInline
    static func encode<T: Encodable>(_ value: T) throws -> StoredValue {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "+Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        let data = try encoder.encode(value)
        return .text(String(decoding: data, as: UTF8.self))
    }

    @usableFromInline
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
    @inlinable
    static func relationship(_ kind: PropertyKind, isOptional: Bool, destination: Any.Type) -> ValueCodec {
        ValueCodec(
            kind: kind, isOptional: isOptional, valueType: destination,
            cachesDecodedValue: true,
            encode: { _ in .null },
            decode: { _ in nil }
        )
    }
}

/// A cheap test that a stored value decodes to a property's type, so rows can be validated as they load
/// without running the property's generic decoder.
@usableFromInline
package enum StoredValueCheck: Sendable {
    /// An integer in a range.
    case integer(ClosedRange<Int64>)
    /// An unsigned value (a non-negative integer or 20-digit text).
    case unsigned
    /// A floating-point value (real, integer, or the text `'NaN'`).
    case real
    case text
    /// A blob, of an exact length when given.
    case blob(length: Int?)
    /// Anything else: run the decoder.
    case decode

    @usableFromInline
    init<Value: StorableValue>(for type: Value.Type) {
        switch type {
        case is Bool.Type: self = .integer(0...1)
        case is Int.Type, is Int64.Type: self = .integer(Int64.min...Int64.max)
        case is Int32.Type: self = .integer(Int64(Int32.min)...Int64(Int32.max))
        case is Int16.Type: self = .integer(Int64(Int16.min)...Int64(Int16.max))
        case is Int8.Type: self = .integer(Int64(Int8.min)...Int64(Int8.max))
        case is UInt32.Type: self = .integer(0...Int64(UInt32.max))
        case is UInt16.Type: self = .integer(0...Int64(UInt16.max))
        case is UInt8.Type: self = .integer(0...Int64(UInt8.max))
        case is UInt.Type, is UInt64.Type: self = .unsigned
        case is Double.Type, is Float.Type, is Date.Type: self = .real
        case is String.Type: self = .text
        case is Data.Type: self = .blob(length: nil)
        case is UUID.Type: self = .blob(length: 16)
        default: self = .decode
        }
    }

    /// The storage classes whose every value passes, whatever its payload: loading a row checks a value of one
    /// of them with a bit test instead of ``accepts(_:isOptional:)``.
    ///
    /// A `Bool` passes ``StorageClasses/zeroOrOne``; empty where every value needs a look at its payload (a `UUID`
    /// accepts only blobs of 16 bytes).
    package func classesPassingWithoutPayload(isOptional: Bool) -> StorageClasses {
        var classes: StorageClasses = isOptional ? .null : []
        switch self {
        case .integer(let range):
            if range == Int64.min...Int64.max {
                classes.insert(.integer)
            } else if range == 0...1 {
                classes.insert(.zeroOrOne)
            }
        case .real:
            classes.formUnion([.integer, .real])
        case .text:
            classes.insert(.text)
        case .blob(let length):
            if length == nil { classes.insert(.blob) }
        case .unsigned, .decode:
            break
        }
        return classes
    }

    /// Whether `stored` passes; `nil` when the decoder must decide.
    ///
    /// Switches on the stored value first and binds a payload only where the check reads it: fetches run this
    /// for every column of every row, and a copied text or blob would be retained and released.
    @inline(__always)
    package func accepts(_ stored: StoredValue, isOptional: Bool) -> Bool? {
        if case .decode = self {
            if case .null = stored { return isOptional }
            return nil
        }
        switch stored {
        case .null:
            return isOptional
        case .integer(let value):
            switch self {
            case .integer(let range): return range.contains(value)
            case .unsigned: return value >= 0
            case .real: return true
            default: return false
            }
        case .real:
            if case .real = self { return true }
            return false
        case .text:
            switch self {
            case .text: return true
            case .real: return stored == .text("NaN")
            case .unsigned:
                guard case .text(let text) = stored else { return false }
                return text.utf8.count == StoredValue.unsignedTextWidth && UInt64(text) != nil
            default: return false
            }
        case .blob:
            guard case .blob(let length) = self else { return false }
            guard let length else { return true }
            guard case .blob(let bytes) = stored else { return false }
            return bytes.count == length
        }
    }
}
