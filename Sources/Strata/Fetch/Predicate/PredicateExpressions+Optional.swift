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
        if case .model(let path) = optional, Self.propagatesNil(transformed, from: path) { return transformed }
        let result = try inner.value(transformed, like: nil, in: self)
        let subject = try translator.value(optional, like: nil, in: self)
        return .query(.case(when: .isNull(subject), then: .value(.null), else: result))
    }
}

extension PredicateExpressions.OptionalFlatMap {
    /// Whether `transformed` is already nil whenever the model at the end of `path` is: a property or model
    /// reached through it (`$0.author?.name`) reads through the same to-one hops.
    private static func propagatesNil(_ transformed: TranslatedOperand, from path: RelatedPath) -> Bool {
        switch transformed {
        case .property(_, let reached), .model(let reached):
            return !path.hops.isEmpty && reached.hops.starts(with: path.hops)
        default:
            return false
        }
    }
}
