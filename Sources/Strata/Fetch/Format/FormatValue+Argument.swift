import Foundation

/// An `Optional` seen through `Any`, so a `nil` argument can become ``FormatValue/null``.
private protocol OptionalFormatArgument {
    var wrappedArgument: Any? { get }
}

extension Optional: OptionalFormatArgument {
    fileprivate var wrappedArgument: Any? { self.map { $0 } }
}

/// A collection seen through `Any`, so arrays and sets of any element become
/// ``FormatValue/array(_:)``.
private protocol CollectionFormatArgument {
    var argumentElements: [Any] { get }
}

extension Array: CollectionFormatArgument {
    fileprivate var argumentElements: [Any] { map { $0 } }
}

extension Set: CollectionFormatArgument {
    fileprivate var argumentElements: [Any] { map { $0 } }
}

extension ContiguousArray: CollectionFormatArgument {
    fileprivate var argumentElements: [Any] { map { $0 } }
}

extension ArraySlice: CollectionFormatArgument {
    fileprivate var argumentElements: [Any] { map { $0 } }
}

extension FormatValue {
    /// Converts a Swift value given as a format argument or substitution variable.
    ///
    /// Accepts `FormatValue`, `nil`, `Bool`, every fixed-width integer, `Double`/`Float`,
    /// `Decimal`, `String`/`Substring`/`Character`, `Date`, `UUID`, `Data`, `URL`, arrays and sets
    /// of those, and `RawRepresentable` values (by raw value). Returns `nil` for anything else,
    /// for integers outside `Int64` and for non-finite floating-point numbers.
    package init?(argument: Any) {
        guard let value = Self.convert(argument, depth: 0) else { return nil }
        self = value
    }

    /// Arrays nested deeper than this are refused rather than walked.
    private static let maximumArgumentDepth = 32

    private static func convert(_ argument: Any, depth: Int) -> FormatValue? {
        if let optional = argument as? any OptionalFormatArgument {
            guard let wrapped = optional.wrappedArgument else { return .null }
            return convert(wrapped, depth: depth)
        }
        if let value = argument as? FormatValue { return value }
        if let scalar = scalar(argument) { return scalar }
        if let collection = argument as? any CollectionFormatArgument {
            guard depth < maximumArgumentDepth else { return nil }
            var elements: [FormatValue] = []
            for element in collection.argumentElements {
                guard let converted = convert(element, depth: depth + 1) else { return nil }
                elements.append(converted)
            }
            return .array(elements)
        }
        if let raw = argument as? any RawRepresentable {
            return convert(Self.rawValue(of: raw), depth: depth)
        }
        return nil
    }

    private static func rawValue<Wrapped: RawRepresentable>(of value: Wrapped) -> Any {
        value.rawValue
    }

    private static func scalar(_ argument: Any) -> FormatValue? {
        switch argument {
        case let value as Bool: return .bool(value)
        case let value as any BinaryInteger: return Int64(exactly: value).map { .int($0) }
        case let value as Double: return value.isFinite ? .double(value) : nil
        case let value as Float: return value.isFinite ? .double(Double(value)) : nil
        case let value as Decimal: return value.isNaN ? nil : .decimal(value)
        case let value as String: return .string(value)
        case let value as Substring: return .string(String(value))
        case let value as Character: return .string(String(value))
        case let value as Date: return .date(value)
        case let value as UUID: return .uuid(value)
        case let value as Data: return .data(value)
        case let value as URL: return .url(value)
        case is NSNull: return .null
        default: return nil
        }
    }

    /// A short name of `argument`'s type, for ``PredicateFormatError/Kind/argumentTypeMismatch(index:expected:got:)``.
    static func typeName(of argument: Any) -> String {
        String(describing: type(of: argument))
    }
}
