import Foundation

// `nil` itself (`NilLiteral`) reads no input, so it is folded to a bound NULL like any other constant.

extension PredicateExpressions.NilCoalesce: QueryTranslatable {
    package func translate(with translator: PredicateTranslator) throws -> TranslatedOperand {
        try translator.call(.coalesce, lhs, rhs, in: self)
    }
}

extension PredicateExpressions.ForcedUnwrap: QueryTranslatable {
    // Swift's `evaluate` throws for a nil; SQL carries the NULL on, so such a row matches as if the value were nil.
    package func translate(with translator: PredicateTranslator) throws -> TranslatedOperand {
        try translator.operand(inner)
    }
}

extension PredicateExpressions.OptionalFlatMap: QueryTranslatable {
    package func translate(with translator: PredicateTranslator) throws -> TranslatedOperand {
        let optional = try translator.operand(wrapped)
        if case .constant(let value) = optional {
            guard let unwrapped = (value as? any OptionalProtocol)?.wrappedValue else { return .constant(value) }
            return try translator.binding(variable.key, to: .constant(unwrapped)).operand(transform)
        }
        let inner = translator.binding(variable.key, to: optional)
        let transformed = try inner.operand(transform)
        // An optional to-many relationship (`$0.items?.isEmpty`) is never nil: it reads as an empty array, as in
        // SwiftData.
        if case .models = optional { return transformed }
        if Self.propagatesNil(transformed, from: optional) { return transformed }
        let result = try inner.value(transformed, like: nil, in: self)
        let subject = try translator.value(optional, like: nil, in: self)
        return .query(.case(when: .isNull(subject), then: .value(.null), else: result))
    }
}

extension PredicateExpressions.OptionalFlatMap {
    /// Whether `transformed` is already nil whenever `optional` is: a property or model reached through the same
    /// to-one hops (`$0.author?.name`), or the optional property itself (`$0.status?.rawValue`).
    private static func propagatesNil(_ transformed: TranslatedOperand, from optional: TranslatedOperand) -> Bool {
        switch (optional, transformed) {
        case (.property(let wrapped, let wrappedPath), .property(let property, let reached)):
            // `$0.status?.rawValue`: the optional raw-value enum's own column, nil exactly when the enum is.
            return wrapped.index == property.index && wrappedPath == reached
        case (.model(let path), .property(_, let reached)), (.model(let path), .model(let reached)):
            return !path.hops.isEmpty && reached.hops.starts(with: path.hops)
        default:
            return false
        }
    }
}
