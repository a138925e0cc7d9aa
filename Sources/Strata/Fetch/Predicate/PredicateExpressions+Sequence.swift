import Foundation

extension PredicateExpressions.SequenceContains: QueryTranslatable {
    /// `list.contains($0.property)` with a list known before the query runs: `IN` over bound values.
    package func translate(with translator: PredicateTranslator) throws -> TranslatedOperand {
        let searched = try translator.operand(sequence)
        if case .property(let property, let path) = searched, property.storesJSON {
            return try CompositeField.contains(
                element, RHS.Output.self, in: property, path: path, translator: translator, node: self)
        }
        guard case .constant(let list) = searched, let values = list as? any Sequence else {
            throw translator.unsupported(
                self, "only a list of values known before the fetch can be searched in the store")
        }
        let item = try translator.operand(element)
        let subject = try translator.value(item, like: nil, in: self)
        var candidates: [QueryExpression] = []
        var includesNil = false
        for value in values {
            let encoded = try translator.value(.constant(value), like: item, in: self)
            if encoded == .value(.null) { includesNil = true } else { candidates.append(encoded) }
        }
        // `IN` never matches NULL, while Swift's `contains` finds a nil element.
        let membership: QueryExpression = .in(
            PredicateTranslator.comparedLikeSwift(subject, producedBy: element), candidates)
        return .query(includesNil ? .or([membership, .isNull(subject)]) : membership)
    }
}

extension PredicateExpressions.CollectionContainsCollection: QueryTranslatable {
    /// `$0.title.contains("x")`: whole Characters, as Swift compares.
    package func translate(with translator: PredicateTranslator) throws -> TranslatedOperand {
        try translator.textFunction(.characterContains, base, other, baseType: Base.Output.self, in: self)
    }
}

extension PredicateExpressions.SequenceStartsWith: QueryTranslatable {
    /// `$0.title.starts(with: "x")`.
    package func translate(with translator: PredicateTranslator) throws -> TranslatedOperand {
        try translator.textFunction(.characterBeginsWith, base, prefix, baseType: Base.Output.self, in: self)
    }
}
