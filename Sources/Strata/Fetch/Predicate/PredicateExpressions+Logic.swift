import Foundation

extension PredicateExpressions.Conjunction: QueryTranslatable {
    package func translate(with translator: PredicateTranslator) throws -> TranslatedOperand {
        .query(.and([try translator.condition(lhs), try translator.condition(rhs)]))
    }
}

extension PredicateExpressions.Disjunction: QueryTranslatable {
    package func translate(with translator: PredicateTranslator) throws -> TranslatedOperand {
        .query(.or([try translator.condition(lhs), try translator.condition(rhs)]))
    }
}

extension PredicateExpressions.Negation: QueryTranslatable {
    package func translate(with translator: PredicateTranslator) throws -> TranslatedOperand {
        .query(.not(try translator.condition(wrapped)))
    }
}
