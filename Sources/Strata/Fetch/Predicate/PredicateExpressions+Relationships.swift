import Foundation

// Closures over a to-many relationship run in the destination's scope: their input is each related model, and
// they can't read the enclosing closure's input (that would need a correlation the query tree doesn't model).

extension PredicateExpressions.SequenceContainsWhere: QueryTranslatable {
    /// `$0.tags.contains { $0.name == "swift" }`: `EXISTS` over the relationship.
    package func translate(with translator: PredicateTranslator) throws -> TranslatedOperand {
        var query = try translator.relatedModels(sequence, in: self)
        let inner = try translator.scoped(to: query, variable: variable.key, in: self)
        query.condition = PredicateTranslator.conjunction(query.condition, try inner.condition(test))
        return .query(.exists(query))
    }
}

extension PredicateExpressions.SequenceAllSatisfy: QueryTranslatable {
    /// `$0.tags.allSatisfy { … }`: no related model fails the test. A test SQL can't decide (null) counts as
    /// failed, as a null condition excludes a row at the top.
    package func translate(with translator: PredicateTranslator) throws -> TranslatedOperand {
        var query = try translator.relatedModels(sequence, in: self)
        let inner = try translator.scoped(to: query, variable: variable.key, in: self)
        let failed = QueryExpression.not(.function(.coalesce, [try inner.condition(test), .constant(false)]))
        query.condition = PredicateTranslator.conjunction(query.condition, failed)
        return .query(.not(.exists(query)))
    }
}

extension PredicateExpressions.Filter: QueryTranslatable {
    /// `$0.tags.filter { … }`: the related models that pass, for `count` or `isEmpty`.
    package func translate(with translator: PredicateTranslator) throws -> TranslatedOperand {
        var query = try translator.relatedModels(sequence, in: self)
        let inner = try translator.scoped(to: query, variable: variable.key, in: self)
        query.condition = PredicateTranslator.conjunction(query.condition, try inner.condition(filter))
        return .models(query)
    }
}
