import Foundation

/// A field inside a composite attribute's JSON value (`address.city`), and the SQL type it is compared as.
///
/// A composite attribute (a `Codable` struct) is stored as one JSON text column; its fields are read in the
/// store with `json_extract` (SQLite) and `#>>` (PostgreSQL), cast to the scalar the field's Swift type is
/// stored as at the top level, so a field compares and sorts as an attribute of the same type would.
package struct CompositeFieldPath: Hashable, Sendable {
    /// The JSON keys from the attribute's value to the field: the fields' Swift names, which synthesized
    /// `Codable` conformances use as keys.
    package let keys: [String]
    /// How the field's JSON value is compared.
    package let scalar: CompositeScalar

    package init(keys: [String], scalar: CompositeScalar) {
        self.keys = keys
        self.scalar = scalar
    }

    /// The SQLite JSON path, `$."address"."city"`, as an SQL string literal.
    package var sqliteLiteral: String {
        "'$" + keys.map { ".\"" + $0.replacingOccurrences(of: "'", with: "''") + "\"" }.joined() + "'"
    }

    /// The PostgreSQL path, `ARRAY['address','city']::text[]`.
    package var postgresLiteral: String {
        "ARRAY[" + keys.map { "'" + $0.replacingOccurrences(of: "'", with: "''") + "'" }.joined(separator: ",")
            + "]::text[]"
    }

    /// The field's value in a stored JSON text, as the store's SQL reads it: `NULL` when the key is absent or
    /// JSON `null`, when the text isn't JSON, or when the value has another JSON type.
    package func extract(from stored: StoredValue) -> StoredValue {
        guard case .text(let text) = stored,
            var value = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        else {
            return .null
        }
        for key in keys {
            guard case .object(let members) = value, let member = members[key] else { return .null }
            value = member
        }
        return scalar.storedValue(of: value)
    }

    /// The elements of the array at the path in a stored JSON text, each as the store's SQL reads it for the
    /// path's scalar; none when the value there is not an array.
    package func elements(in stored: StoredValue) -> [StoredValue] {
        guard case .text(let text) = stored,
            var value = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        else {
            return []
        }
        for key in keys {
            guard case .object(let members) = value, let member = members[key] else { return [] }
            value = member
        }
        guard case .array(let elements) = value else { return [] }
        return elements.map(scalar.storedValue(of:))
    }

    /// A JSON text in the canonical form the store compares composite values in (`json(?)`, `::jsonb`).
    package static func canonicalJSON(_ stored: StoredValue) -> StoredValue {
        guard case .text(let text) = stored,
            let value = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        else {
            return stored
        }
        return CompositeScalar.json.storedValue(of: value)
    }
}

/// How a composite field's JSON value is compared: as the column type its Swift type has at the top level.
package enum CompositeScalar: Hashable, Sendable {
    /// JSON strings: `String`, `URL`, `UUID` (uppercase text), `Character`, `Data` (base64), and raw-value enums
    /// with text raw values.
    case text
    /// JSON integers: the integer types up to 64 bits (signed) or 32 bits (unsigned).
    case integer
    /// JSON numbers as doubles: `Double`, `Float`, `Date` (seconds since 2001, as `Date` encodes itself); `NaN`
    /// and infinities are the strings `"NaN"`, `"+Infinity"`, `"-Infinity"`, as Strata's encoder writes them.
    case real
    /// JSON `true`/`false`, compared as 1 and 0, as a `Bool` column holds them.
    case boolean
    /// Any other value (a nested struct, an array, an enum with associated values): its canonical JSON text,
    /// compared for equality only.
    case json
    /// The number of elements of a JSON array (`tags.count`, `tags.isEmpty`); null when the field is absent.
    case elementCount

    /// The column type values of this scalar have.
    package var storageClass: StorageClass {
        switch self {
        case .text, .json: .text
        case .integer, .boolean, .elementCount: .integer
        case .real: .real
        }
    }

    /// How fields of `type` are compared, or why they can't be.
    package static func of(_ type: Any.Type) -> Result<CompositeScalar, CompositeFieldError> {
        let type = CompositeScalar.unwrapped(type)
        switch type {
        case is String.Type, is URL.Type, is UUID.Type, is Character.Type, is Data.Type: return .success(.text)
        case is Bool.Type: return .success(.boolean)
        case is Int.Type, is Int64.Type, is Int32.Type, is Int16.Type, is Int8.Type,
            is UInt32.Type, is UInt16.Type, is UInt8.Type:
            return .success(.integer)
        case is Double.Type, is Float.Type, is Date.Type: return .success(.real)
        case is UInt.Type, is UInt64.Type:
            return .failure(.uncomparable(type, "JSON numbers above Int64.max lose digits in SQL"))
        case is Decimal.Type:
            return .failure(.uncomparable(type, "JSON numbers lose Decimal's digits in SQL"))
        default:
            break
        }
        if let raw = type as? any RawRepresentable.Type {
            return of(rawValueType(of: raw))
        }
        return .success(.json)
    }

    /// `type` without `Optional`s around it.
    package static func unwrapped(_ type: Any.Type) -> Any.Type {
        guard let optional = type as? any CompositeOptional.Type else { return type }
        return unwrapped(optional.wrappedType)
    }

    /// Whether `type` is an `Optional`.
    package static func isOptional(_ type: Any.Type) -> Bool { type is any CompositeOptional.Type }

    private static func rawValueType<Raw: RawRepresentable>(of _: Raw.Type) -> Any.Type { Raw.RawValue.self }

    /// A constant's stored form for comparing with a field of this scalar: its JSON encoding (as the attribute
    /// holding it encodes it), read back as SQL reads the field; `nil` when the value isn't `Encodable`.
    package func storedValue(forConstant value: Any) throws -> StoredValue? {
        if let optional = value as? any OptionalProtocol, optional.wrappedValue == nil { return .null }
        guard let encodable = value as? any Encodable else { return nil }
        let encoded = try JSONCoding.encode(encodable)
        guard case .text(let text) = encoded else { return nil }
        let json = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        // A count is compared with an integer.
        return (self == .elementCount ? CompositeScalar.integer : self).storedValue(of: json)
    }

    /// A JSON value as the store's SQL reads it for this scalar; `NULL` for another JSON type.
    func storedValue(of value: JSONValue) -> StoredValue {
        switch (self, value) {
        case (_, .null): return .null
        case (.json, _):
            guard let data = try? JSONValue.encoder.encode(value) else { return .null }
            return .text(String(decoding: data, as: UTF8.self))
        case (.text, .string(let text)): return .text(text)
        case (.integer, .integer(let number)): return .integer(number)
        case (.real, .integer(let number)): return .real(Double(number))
        case (.real, .real(let number)): return number.storedValue
        case (.real, .string("NaN")): return .text("NaN")
        case (.real, .string("+Infinity")): return .real(.infinity)
        case (.real, .string("-Infinity")): return .real(-.infinity)
        case (.boolean, .bool(let truth)): return .integer(truth ? 1 : 0)
        case (.elementCount, .array(let elements)): return .integer(Int64(elements.count))
        case (.elementCount, _): return .integer(0)
        default: return .null
        }
    }
}

/// Why a composite field can't be queried.
package enum CompositeFieldError: Error, Sendable {
    /// The field's type has no comparison the store can run exactly.
    case uncomparable(Any.Type, String)
}

/// Lets a composite field's type be seen through `Optional`.
package protocol CompositeOptional {
    static var wrappedType: Any.Type { get }
}

extension Optional: CompositeOptional {
    package static var wrappedType: Any.Type { Wrapped.self }
}

/// A JSON value, for reading fields of stored composite values in memory the way the store's SQL does.
enum JSONValue: Codable, Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    case real(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Sorted keys and unescaped slashes, as Strata writes composite values.
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let truth = try? container.decode(Bool.self) {
            self = .bool(truth)
        } else if let number = try? container.decode(Int64.self) {
            self = .integer(number)
        } else if let number = try? container.decode(Double.self) {
            self = .real(number)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let array = try? container.decode([JSONValue].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let truth): try container.encode(truth)
        case .integer(let number): try container.encode(number)
        case .real(let number): try container.encode(number)
        case .string(let text): try container.encode(text)
        case .array(let array): try container.encode(array)
        case .object(let members): try container.encode(members)
        }
    }
}
