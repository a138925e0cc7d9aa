import Foundation

extension PredicateExpressions.Variable: QueryTranslatable {
    package func translate(with translator: PredicateTranslator) throws -> TranslatedOperand {
        if let bound = translator.bindings[key] { return bound }
        throw translator.unsupported(self, "a model itself can't be compared in the store; compare one of its properties")
    }
}

extension PredicateExpressions.KeyPath: QueryTranslatable {
    package func translate(with translator: PredicateTranslator) throws -> TranslatedOperand {
        guard let variable = root as? PredicateExpressions.Variable<Root.Output>, variable.key == translator.variable else {
            return try translateMember(with: translator)
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

extension PredicateExpressions.KeyPath {
    /// A member of a computed value, such as `$0.title.count`.
    private func translateMember(with translator: PredicateTranslator) throws -> TranslatedOperand {
        guard Root.Output.self == String.self else {
            throw translator.unsupported(self, "a key path on a \(Root.Output.self) value is not translated; "
                + "only the input's own properties and a String's count and isEmpty are")
        }
        let text = try translator.value(try translator.operand(root), like: nil, in: self)
        switch keyPath {
        case \String.count:
            return .query(.function(.characterCount, [text]))
        case \String.isEmpty:
            return .query(.equal(text, .value(.text(""))))
        default:
            throw translator.unsupported(self, "\(keyPath) is not translated; String's count and isEmpty are")
        }
    }
}
