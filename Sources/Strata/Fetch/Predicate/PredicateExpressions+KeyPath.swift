import Foundation

extension PredicateExpressions.Variable: QueryTranslatable {
    package func translate(with translator: PredicateTranslator) throws -> TranslatedOperand {
        throw translator.unsupported(self, "a model itself can't be compared in the store; compare one of its properties")
    }
}

extension PredicateExpressions.KeyPath: QueryTranslatable {
    package func translate(with translator: PredicateTranslator) throws -> TranslatedOperand {
        guard let variable = root as? PredicateExpressions.Variable<Root.Output>, variable.key == translator.variable else {
            throw translator.unsupported(self, "only key paths on the predicate's own input are supported here")
        }
        guard let property = translator.entity.property(for: keyPath) else {
            throw translator.unsupported(
                self, "\(keyPath) is not a persistent property of \(translator.entity.name) (is it @Transient or computed?)")
        }
        guard case .attribute = property.kind else {
            throw translator.unsupported(self, "\(translator.entity.name).\(property.name) is a relationship")
        }
        return .property(property)
    }
}
