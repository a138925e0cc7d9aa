import Foundation

extension PredicateTranslator {
    /// Boxes a constant so "no constant" and "the constant nil" stay distinct.
    package struct Constant { package let value: Any }

    /// Evaluates an expression that does not read the predicate's input; `nil` when it does.
    static func constantValue(of expression: Any) -> Constant? {
        if let checked = PredicateNodeConformances.checkedFolding(expression) { return checked.checkedConstant }
        guard !certainlyReadsInput(expression), let standard = PredicateNodeConformances.expression(expression) else {
            return nil
        }
        return evaluateWithoutInput(standard)
    }

    private static func evaluateWithoutInput<E: PredicateExpression>(_ expression: E) -> Constant? {
        // Reading the input throws when no value is bound to it, which is how a non-constant subtree shows itself.
        guard let value = try? expression.evaluate(PredicateBindings()) else { return nil }
        return Constant(value: value)
    }

    /// The stored form of a constant with no property to take its encoding from.
    static func storedValue(forConstant value: Any) throws -> StoredValue? {
        if let optional = value as? any OptionalProtocol {
            guard let wrapped = optional.wrappedValue else { return .null }
            return try storedValue(forConstant: wrapped)
        }
        if let storable = value as? any StorableValue { return storable.storedValue }
        if let raw = value as? any RawRepresentable { return try storedValue(forConstant: raw.rawValue) }
        if let encodable = value as? any Encodable { return try JSONCoding.encode(encodable) }
        return nil
    }
}

/// Lets code see through an `Optional` held in an `Any`.
package protocol OptionalProtocol {
    var wrappedValue: Any? { get }
}

extension Optional: OptionalProtocol {
    package var wrappedValue: Any? {
        switch self {
        case .some(let value): value
        case .none: nil
        }
    }
}
