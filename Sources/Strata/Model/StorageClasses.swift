/// A set of SQLite storage classes: the cases of ``StoredValue``, without their payloads.
///
/// Loading a row compares each value's class with the classes its property accepts whatever the payload (an
/// `Int` property accepts any integer), so most values are validated with one bit test.
package struct StorageClasses: OptionSet, Sendable, Hashable {
    package let rawValue: UInt8

    package init(rawValue: UInt8) { self.rawValue = rawValue }

    /// `StoredValue.null`.
    package static let null = StorageClasses(rawValue: 1 << 0)
    /// `StoredValue.integer`.
    package static let integer = StorageClasses(rawValue: 1 << 1)
    /// `StoredValue.real`.
    package static let real = StorageClasses(rawValue: 1 << 2)
    /// `StoredValue.text`.
    package static let text = StorageClasses(rawValue: 1 << 3)
    /// `StoredValue.blob`.
    package static let blob = StorageClasses(rawValue: 1 << 4)
}

extension StoredValue {
    /// The value's storage class, as a one-element set.
    @inline(__always)
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
