import CLibPQ
import Strata

/// How one result column's values become ``StoredValue``s, decided once per result from the column's type OID and
/// type modifier, so reading a row looks nothing up but the value itself.
enum PostgresColumnKind {
    case int8, int4, int2, bool
    case float8, float4
    /// `numeric`: a Decimal, kept as the text PostgreSQL prints.
    case numeric
    /// `numeric(20,0)`: an unsigned 64-bit value, an integer up to `Int64.max`, else 20 zero-padded digits.
    case unsigned
    /// Text-like types (`text`, `varchar`, `name`, `json`…), whose binary form is their UTF-8 text.
    case text
    case bytea
    /// `uuid`: its 16 bytes, as Strata stores a UUID.
    case uuid
    /// `timestamptz` and `timestamp`: seconds since 2001-01-01 UTC, as Strata stores a Date.
    case timestamp
    /// `jsonb`: a version byte, then the JSON text.
    case jsonb
    /// Any other type: its text, or in a binary result its bytes.
    case other

    /// The kind of a column of type OID `type` with type modifier `modifier` (`PQftype`, `PQfmod`).
    init(type: Oid, modifier: Int32) {
        switch type {
        case PostgresType.int8: self = .int8
        case PostgresType.int4: self = .int4
        case PostgresType.int2: self = .int2
        case PostgresType.bool: self = .bool
        case PostgresType.float8: self = .float8
        case PostgresType.float4: self = .float4
        case PostgresType.numeric: self = modifier == PostgresType.unsignedModifier ? .unsigned : .numeric
        case PostgresType.text, PostgresType.name, PostgresType.json, PostgresType.bpchar, PostgresType.varchar,
            PostgresType.unknown:
            self = .text
        case PostgresType.bytea: self = .bytea
        case PostgresType.uuid: self = .uuid
        case PostgresType.timestamp, PostgresType.timestamptz: self = .timestamp
        case PostgresType.jsonb: self = .jsonb
        default: self = .other
        }
    }

    /// A value in PostgreSQL's binary format (network byte order), as Strata stores it: the same value the text
    /// format decodes to (NaN as the text `'NaN'`, -0.0 and infinities kept, `numeric` as PostgreSQL prints it).
    /// Bytes too short for the type (which a server doesn't send) read as `NULL`.
    @inline(__always)
    func binaryValue(_ bytes: UnsafeRawBufferPointer) -> StoredValue {
        switch self {
        case .int8:
            guard bytes.count == 8 else { return .null }
            return .integer(Int64(bigEndian: bytes.loadUnaligned(as: Int64.self)))
        case .int4:
            guard bytes.count == 4 else { return .null }
            return .integer(Int64(Int32(bigEndian: bytes.loadUnaligned(as: Int32.self))))
        case .int2:
            guard bytes.count == 2 else { return .null }
            return .integer(Int64(Int16(bigEndian: bytes.loadUnaligned(as: Int16.self))))
        case .bool:
            guard bytes.count == 1 else { return .null }
            return .integer(bytes[0] == 0 ? 0 : 1)
        case .float8:
            guard bytes.count == 8 else { return .null }
            return Self.real(Double(bitPattern: UInt64(bigEndian: bytes.loadUnaligned(as: UInt64.self))))
        case .float4:
            guard bytes.count == 4 else { return .null }
            // Through its shortest digits, as the text format reads a `real` (0.1, not 0.100000001490116…).
            let value = Float(bitPattern: UInt32(bigEndian: bytes.loadUnaligned(as: UInt32.self)))
            return Self.real(value.isFinite ? Double(value.description) ?? Double(value) : Double(value))
        case .numeric:
            return PostgresNumeric(bytes).map { .text($0.text) } ?? .null
        case .unsigned:
            return PostgresNumeric(bytes).map { PostgresType.unsigned($0.text) } ?? .null
        case .text:
            return .text(Self.text(bytes))
        case .bytea, .uuid, .other:
            return .blob(Array(bytes))
        case .timestamp:
            guard bytes.count == 8 else { return .null }
            return .real(
                Self.referenceSeconds(microsecondsSince2000: Int64(bigEndian: bytes.loadUnaligned(as: Int64.self))))
        case .jsonb:
            guard let version = bytes.first, version == 1 else { return .null }
            return .text(Self.text(UnsafeRawBufferPointer(rebasing: bytes.dropFirst())))
        }
    }

    /// UTF-8 bytes as a String, ill-formed sequences replaced by U+FFFD as `String(decoding:as:)` replaces them.
    /// Copied into the string's own buffer and validated there: for the short texts of most columns (up to 15
    /// bytes, kept inline in the String) this is about half the instructions of `String(decoding:as:)`.
    @inline(__always)
    static func text(_ bytes: UnsafeRawBufferPointer) -> String {
        String(unsafeUninitializedCapacity: bytes.count) { buffer in
            UnsafeMutableRawBufferPointer(buffer).copyMemory(from: bytes)
            return bytes.count
        }
    }

    /// A `double precision` value as Strata stores it: NaN as the text `'NaN'` (as SQLite keeps it).
    private static func real(_ value: Double) -> StoredValue {
        value.isNaN ? .text("NaN") : .real(value)
    }

    /// Seconds between PostgreSQL's epoch (2000-01-01) and Foundation's reference date (2001-01-01): 366 days.
    private static let epochOffset: Double = 366 * 86_400

    /// A timestamp (microseconds since 2000-01-01 UTC; `Int64.max`/`.min` for `infinity`/`-infinity`) as seconds
    /// since 2001-01-01 UTC.
    static func referenceSeconds(microsecondsSince2000 microseconds: Int64) -> Double {
        switch microseconds {
        case .max: return .infinity
        case .min: return -.infinity
        default:
            // Whole seconds and the rest apart, so the sum rounds once.
            let (seconds, fraction) = microseconds.quotientAndRemainder(dividingBy: 1_000_000)
            return (Double(seconds) - epochOffset) + Double(fraction) / 1_000_000
        }
    }
}
