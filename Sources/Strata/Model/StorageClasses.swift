/// A set of SQLite storage classes: the cases of ``StoredValue``, without their payloads.
///
/// Loading a row compares each value's class with the classes its property accepts whatever the payload (an
/// `Int` property accepts any integer), so most values are validated with one bit test.
@usableFromInline
package struct StorageClasses: OptionSet, Sendable, Hashable {
    @usableFromInline package let rawValue: UInt8

    @inlinable package init(rawValue: UInt8) { self.rawValue = rawValue }

    /// `StoredValue.null`.
    @inlinable package static var null: StorageClasses { StorageClasses(rawValue: 1 << 0) }
    /// `StoredValue.integer`.
    @inlinable package static var integer: StorageClasses { StorageClasses(rawValue: 1 << 1) }
    /// `StoredValue.real`.
    @inlinable package static var real: StorageClasses { StorageClasses(rawValue: 1 << 2) }
    /// `StoredValue.text`.
    @inlinable package static var text: StorageClasses { StorageClasses(rawValue: 1 << 3) }
    /// `StoredValue.blob`.
    @inlinable package static var blob: StorageClasses { StorageClasses(rawValue: 1 << 4) }
    /// The integers 0 and 1, which a `Bool` property accepts: not a storage class of its own, but a second class of
    /// such a value (see ``admits(_:)``), so that a `Bool` column passes with the same bit test.
    @inlinable package static var zeroOrOne: StorageClasses { StorageClasses(rawValue: 1 << 5) }

    /// Whether `value` passes on its class: its storage class is one of these, or it is an integer 0 or 1 and
    /// these hold ``zeroOrOne``.
    @inlinable @inline(__always)
    package func admits(_ value: StoredValue) -> Bool {
        admits(classes: Self.classes(of: value))
    }

    /// Whether a value of `classes` (``classes(of:)``) passes: one of its classes is one of these.
    @inlinable @inline(__always)
    package func admits(classes: StorageClasses) -> Bool {
        rawValue & classes.rawValue != 0
    }

    /// The classes a value passes a property on: its storage class, and ``zeroOrOne`` for the integers 0 and 1.
    @inlinable @inline(__always)
    package static func classes(of value: StoredValue) -> StorageClasses {
        if case .integer(let integer) = value { return classes(ofInteger: integer) }
        return value.storageClass
    }

    /// The classes of `StoredValue.integer(integer)` (see ``classes(of:)``).
    @inlinable @inline(__always)
    package static func classes(ofInteger integer: Int64) -> StorageClasses {
        integer & ~1 == 0 ? [.integer, .zeroOrOne] : .integer
    }
}

extension StoredValue {
    /// The value's storage class, as a one-element set.
    @inlinable @inline(__always)
    package var storageClass: StorageClasses {
        switch self {
        case .null: .null
        case .integer: .integer
        case .real: .real
        case .text: .text
        case .blob: .blob
        }
    }
}
