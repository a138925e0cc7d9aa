import Foundation

extension PredicateExpressions.Conditional: QueryTranslatable {
    package func translate(with translator: PredicateTranslator) throws -> TranslatedOperand {
        let then = try translator.operand(trueBranch)
        let otherwise = try translator.operand(falseBranch)
        return .query(
            .case(
                when: try translator.condition(test),
                then: try translator.value(then, like: otherwise, in: self),
                else: try translator.value(otherwise, like: then, in: self)))
    }
}
