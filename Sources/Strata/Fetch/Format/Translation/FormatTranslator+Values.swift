import Foundation

extension FormatTranslator {
    /// The query expression for an operand; a constant is encoded the way `counterpart`'s property
    /// stores its values (or in its natural stored form when the counterpart is not a property).
    ///
    /// - Throws: `StrataError.unsupportedPredicate` when the constant can't be a value of the property.
    func value(
        _ operand: LoweredOperand, like counterpart: LoweredOperand?, in expression: FormatExpression
    ) throws -> QueryExpression {
        switch operand {
        case .property(_, let query, _), .computed(let query):
            return query
        case .constant(let value):
            if let counterpart, let property = counterpart.property {
                return .value(try stored(value, for: property, named: counterpart.propertyName, in: expression))
            }
            return .value(try Self.naturalStoredValue(value, in: expression, translator: self))
        }
    }

    /// `value` as `property` stores it: numbers compare with dates as seconds since 2001-01-01,
    /// `YES`/`NO` with Bools and numbers, strings with raw-value enums, UUIDs and URLs.
    ///
    /// - Throws: `StrataError.unsupportedPredicate` naming the property for a mistyped value.
    func stored(
        _ value: FormatValue, for property: any AnyPersistentProperty, named name: String,
        in expression: FormatExpression
    ) throws -> StoredValue {
        if case .null = value { return .null }
        // Built only on failure: the description prints the whole predicate, and a list encodes every member here.
        let mistyped = {
            self.unsupported(
                expression,
                "\(name) holds \(Self.typeDescription(of: property)) values; "
                    + "it can't be compared with \(Self.kindDescription(of: value))")
        }
        guard case .attribute(let storage) = property.kind else {
            // A relationship compares only with nil in a format string.
            throw mistyped()
        }
        guard let encoded = Self.encode(value, valueType: property.valueType, storage: storage) else {
            throw mistyped()
        }
        return encoded
    }

    /// The stored form of a value with no property to take its encoding from.
    static func naturalStoredValue(
        _ value: FormatValue, in expression: FormatExpression, translator: FormatTranslator
    ) throws -> StoredValue {
        switch value {
        case .null: return .null
        case .bool(let truth): return truth.storedValue
        case .int(let integer): return .integer(integer)
        case .double(let double): return .real(double)
        case .decimal(let decimal): return decimal.storedValue
        case .string(let text): return .text(text)
        case .date(let date): return date.storedValue
        case .uuid(let uuid): return uuid.storedValue
        case .data(let data): return data.storedValue
        case .url(let url): return url.storedValue
        case .array:
            throw translator.unsupported(expression, "a list can only follow IN, BETWEEN or CONTAINS")
        }
    }

    private static func encode(_ value: FormatValue, valueType: Any.Type, storage: StorageClass) -> StoredValue? {
        if valueType == Date.self {
            switch value {
            case .date(let date): return date.storedValue
            case .int(let seconds): return .real(Double(seconds))
            case .double(let seconds): return .real(seconds)
            default: return nil
            }
        }
        if valueType == Bool.self {
            switch value {
            case .bool(let truth): return truth.storedValue
            case .int(let integer) where integer == 0 || integer == 1: return .integer(integer)
            default: return nil
            }
        }
        switch (storage, value) {
        case (.integer, .int(let integer)): return .integer(integer)
        case (.integer, .bool(let truth)), (.real, .bool(let truth)): return .integer(truth ? 1 : 0)
        case (.integer, .double(let double)), (.real, .double(let double)): return .real(double)
        case (.unsignedInteger, .int(let integer)): return integer >= 0 ? .unsigned(UInt64(integer)) : .integer(integer)
        case (.real, .int(let integer)): return .real(Double(integer))
        case (.decimal, .decimal(let decimal)): return decimal.storedValue
        case (.decimal, .int(let integer)): return Decimal(integer).storedValue
        case (.decimal, .double(let double)): return Decimal(double).storedValue
        case (.text, .string(let text)) where valueType == URL.self: return URL(string: text).map(\.storedValue)
        case (.text, .string(let text)): return .text(text)
        case (.text, .url(let url)): return url.storedValue
        case (.blob, .uuid(let uuid)) where valueType == UUID.self: return uuid.storedValue
        case (.blob, .string(let text)) where valueType == UUID.self: return UUID(uuidString: text).map(\.storedValue)
        case (.blob, .data(let data)) where valueType != UUID.self: return data.storedValue
        default: return nil
        }
    }

    /// What kind of constant a value is, for errors (the value itself is not shown).
    static func kindDescription(of value: FormatValue) -> String {
        switch value {
        case .null: "nil"
        case .bool: "a Boolean"
        case .int: "an integer"
        case .double: "a floating-point number"
        case .decimal: "a decimal"
        case .string: "a string"
        case .date: "a date"
        case .uuid: "a UUID"
        case .data: "data"
        case .url: "a URL"
        case .array: "a list"
        }
    }

    /// A short description of what a property holds, for errors.
    static func typeDescription(of property: any AnyPersistentProperty) -> String {
        if let destination = property.relationshipDestination { return "\(destination.name) relationship" }
        return String(describing: property.valueType)
    }
}
