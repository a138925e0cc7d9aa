import Foundation

/// One value of an ``AggregateDictionary``: a group key or an aggregate of a ``FormatAggregateDescriptor`` fetch,
/// typed by what Core Data's dictionary would hold there (an `NSNumber`, `NSString`, `NSDate`, …).
///
/// Counts and integer sums are ``int(_:)``, averages and floating-point sums ``double(_:)``; a group key, minimum
/// or maximum has its attribute's kind (an enum's raw value for an enum); an average, minimum or maximum over no
/// values, and a `nil` key, is ``null``.
public enum AggregateValue: Hashable, Sendable, CustomStringConvertible {
    /// No value: a `nil` key, or an average, minimum or maximum over no values (Core Data's `NSNull`).
    case null
    /// A `Bool` attribute.
    case bool(Bool)
    /// A count, an integer sum, or an integer attribute.
    case int(Int)
    /// An average, a floating-point sum, or a floating-point attribute.
    case double(Double)
    /// A `String` attribute.
    case string(String)
    /// A `Date` attribute.
    case date(Date)
    /// A `Data` attribute.
    case data(Data)
    /// A `UUID` attribute.
    case uuid(UUID)

    /// The value of an attribute's Swift type, as the case its kind maps to (an enum by its raw value).
    package init(_ value: Any?) {
        switch value {
        case nil: self = .null
        case let bool as Bool: self = .bool(bool)
        case let integer as any BinaryInteger: self = Int(exactly: integer).map { .int($0) } ?? .double(Double(integer))
        case let floating as any BinaryFloatingPoint: self = .double(Double(floating))
        case let string as String: self = .string(string)
        case let date as Date: self = .date(date)
        case let data as Data: self = .data(data)
        case let uuid as UUID: self = .uuid(uuid)
        case let raw as any RawRepresentable: self = AggregateValue(raw.rawValue)
        case let other?: self = .string(String(describing: other))
        }
    }

    /// The integer, or a `Double` holding a whole number; `nil` otherwise.
    public var intValue: Int? {
        switch self {
        case .int(let value): value
        case .double(let value): Int(exactly: value)
        default: nil
        }
    }

    /// The number as a `Double` (an integer converted); `nil` for anything else.
    public var doubleValue: Double? {
        switch self {
        case .int(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }

    /// The string; `nil` for anything else.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The date; `nil` for anything else.
    public var dateValue: Date? {
        if case .date(let value) = self { return value }
        return nil
    }

    /// The value as text: `nil` for ``null``.
    public var description: String {
        switch self {
        case .null: "nil"
        case .bool(let value): "\(value)"
        case .int(let value): "\(value)"
        case .double(let value): "\(value)"
        case .string(let value): value
        case .date(let value): "\(value)"
        case .data(let value): "\(value)"
        case .uuid(let value): value.uuidString
        }
    }
}
