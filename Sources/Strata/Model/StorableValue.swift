import Foundation

/// How a stored value is kept in a column, which decides the column's declared type.
public enum StorageClass: Sendable, Hashable {
    /// A 64-bit signed integer (`INTEGER`).
    case integer
    /// An unsigned 64-bit integer: `INTEGER` up to `Int64.max`, zero-padded decimal text above it, so that
    /// ordering and equality stay exact across the whole `UInt64` range.
    case unsignedInteger
    /// A double-precision float (`REAL`); NaN is kept as the text `'NaN'`.
    case real
    /// An exact decimal, kept as text and compared numerically by the `STRATA_DECIMAL` collation.
    case decimal
    /// UTF-8 text (`TEXT`).
    case text
    /// Raw bytes (`BLOB`).
    case blob
}

/// A value type that Strata stores in a single column without encoding it as JSON.
///
/// Strata conforms `Bool`, every integer type, `Double`, `Float`, `Decimal`, `String`, `Date`, `Data`, `UUID`
/// and `URL`. Enumerations whose raw value is one of these are stored by raw value; any other `Codable` value is
/// stored as JSON text.
public protocol StorableValue: Codable {
    /// The column storage used for values of this type.
    static var storageClass: StorageClass { get }
    /// The stored form of this value.
    var storedValue: StoredValue { get }
    /// Creates a value from its stored form, or returns `nil` when the stored value can't represent one.
    init?(storedValue: StoredValue)
}

// The common types' conversions are `@inlinable`, so a model's generated accessors convert in place.

extension Bool: StorableValue {
    public static var storageClass: StorageClass { .integer }
    @inlinable public var storedValue: StoredValue { .integer(self ? 1 : 0) }
    @inlinable public init?(storedValue: StoredValue) {
        guard case .integer(let value) = storedValue, value == 0 || value == 1 else { return nil }
        self = value == 1
    }
}

/// Integer types whose every value fits in an `Int64`.
@usableFromInline
protocol SignedStorableInteger: StorableValue, FixedWidthInteger {}

extension SignedStorableInteger {
    public static var storageClass: StorageClass { .integer }
    @inlinable public var storedValue: StoredValue { .integer(Int64(self)) }
    @inlinable public init?(storedValue: StoredValue) {
        guard case .integer(let value) = storedValue, let exact = Self(exactly: value) else { return nil }
        self = exact
    }
}

extension Int: SignedStorableInteger {}
extension Int8: SignedStorableInteger {}
extension Int16: SignedStorableInteger {}
extension Int32: SignedStorableInteger {}
extension Int64: SignedStorableInteger {}
extension UInt8: SignedStorableInteger {}
extension UInt16: SignedStorableInteger {}
extension UInt32: SignedStorableInteger {}

/// Unsigned integer types that may exceed `Int64.max`.
protocol UnsignedStorableInteger: StorableValue, FixedWidthInteger, UnsignedInteger {}

extension UnsignedStorableInteger {
    public static var storageClass: StorageClass { .unsignedInteger }
    public var storedValue: StoredValue { StoredValue.unsigned(UInt64(self)) }
    public init?(storedValue: StoredValue) {
        guard let value = storedValue.unsignedValue, let exact = Self(exactly: value) else { return nil }
        self = exact
    }
}

extension UInt: UnsignedStorableInteger {}
extension UInt64: UnsignedStorableInteger {}

extension StoredValue {
    /// The width of the zero-padded text that holds unsigned values above `Int64.max`.
    static let unsignedTextWidth = 20

    /// The stored form of an unsigned 64-bit value.
    static func unsigned(_ value: UInt64) -> StoredValue {
        if value <= UInt64(Int64.max) { return .integer(Int64(value)) }
        let digits = String(value)
        return .text(String(repeating: "0", count: unsignedTextWidth - digits.count) + digits)
    }

    /// The unsigned value this stored value holds, if any.
    var unsignedValue: UInt64? {
        switch self {
        case .integer(let value) where value >= 0: return UInt64(value)
        case .text(let text) where text.utf8.count == Self.unsignedTextWidth: return UInt64(text)
        default: return nil
        }
    }
}

extension Double: StorableValue {
    public static var storageClass: StorageClass { .real }
    @inlinable public var storedValue: StoredValue { isNaN ? .text("NaN") : .real(self) }
    @inlinable public init?(storedValue: StoredValue) {
        switch storedValue {
        case .real(let value): self = value
        case .integer(let value): self = Double(value)
        case .text("NaN"): self = .nan
        default: return nil
        }
    }
}

extension Float: StorableValue {
    public static var storageClass: StorageClass { .real }
    public var storedValue: StoredValue { Double(self).storedValue }
    public init?(storedValue: StoredValue) {
        guard let value = Double(storedValue: storedValue) else { return nil }
        self = Float(value)
    }
}

extension Decimal: StorableValue {
    public static var storageClass: StorageClass { .decimal }
    public var storedValue: StoredValue { .text(description) }
    public init?(storedValue: StoredValue) {
        switch storedValue {
        // `Decimal.nan` describes itself as "NaN", which `Decimal(string:)` doesn't parse back.
        case .text("NaN"): self = .nan
        case .text(let text):
            guard let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else { return nil }
            self = value
        case .integer(let value): self = Decimal(value)
        case .real(let value): self = Decimal(value)
        default: return nil
        }
    }
}

extension String: StorableValue {
    public static var storageClass: StorageClass { .text }
    @inlinable public var storedValue: StoredValue { .text(self) }
    @inlinable public init?(storedValue: StoredValue) {
        guard case .text(let text) = storedValue else { return nil }
        self = text
    }
}

extension Date: StorableValue {
    public static var storageClass: StorageClass { .real }
    /// Dates are stored as seconds since the reference date (1 January 2001, UTC), as Core Data does.
    @inlinable public var storedValue: StoredValue { .real(timeIntervalSinceReferenceDate) }
    @inlinable public init?(storedValue: StoredValue) {
        switch storedValue {
        case .real(let seconds): self.init(timeIntervalSinceReferenceDate: seconds)
        case .integer(let seconds): self.init(timeIntervalSinceReferenceDate: Double(seconds))
        default: return nil
        }
    }
}

extension Data: StorableValue {
    public static var storageClass: StorageClass { .blob }
    public var storedValue: StoredValue { .blob([UInt8](self)) }
    public init?(storedValue: StoredValue) {
        guard case .blob(let bytes) = storedValue else { return nil }
        self.init(bytes)
    }
}

extension UUID: StorableValue {
    public static var storageClass: StorageClass { .blob }
    /// UUIDs are stored as their 16 bytes, so they compare in byte order.
    public var storedValue: StoredValue {
        withUnsafeBytes(of: uuid) { .blob(Array($0)) }
    }
    public init?(storedValue: StoredValue) {
        guard case .blob(let bytes) = storedValue, bytes.count == 16 else { return nil }
        var raw: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &raw) { $0.copyBytes(from: bytes) }
        self.init(uuid: raw)
    }
}

extension URL: StorableValue {
    public static var storageClass: StorageClass { .text }
    public var storedValue: StoredValue { .text(absoluteString) }
    public init?(storedValue: StoredValue) {
        guard case .text(let text) = storedValue, let url = URL(string: text) else { return nil }
        self = url
    }
}
