import Foundation

extension PredicateExpressions.Variable: QueryTranslatable {
    package func translate(with translator: PredicateTranslator) throws -> TranslatedOperand {
        if let bound = translator.bindings[key] { return bound }
        guard key == translator.variable else {
            throw translator.unsupported(
                self,
                "inside a relationship's closure only that closure's input can be read, "
                    + "not an enclosing closure's")
        }
        return .model(RelatedPath(hops: []))
    }
}

extension PredicateExpressions.KeyPath: QueryTranslatable {
    package func translate(with translator: PredicateTranslator) throws -> TranslatedOperand {
        switch try translator.operand(root) {
        case .model(let path):
            return try translator.member(keyPath, of: path, in: self)
        case .models(let query):
            switch kind {
            case .collectionCount?: return .query(.relatedCount(query))
            case .collectionIsEmpty?: return .query(.not(.exists(query)))
            default:
                throw translator.unsupported(
                    self,
                    "\(keyPath) of a to-many relationship is not translated; "
                        + "count, isEmpty, contains(where:), allSatisfy and filter are")
            }
        case .property(let property, let path) where PredicateTranslator.readsRawValue(keyPath, of: property):
            // A raw-value enum is stored as its raw value: `$0.status.rawValue` is the column itself.
            return .property(property, path: path)
        case .property(let property, let path) where property.storesJSON:
            if let counted = CompositeField.elementCount(keyPath, of: property) {
                // `$0.address.tags.count`, `$0.tags.isEmpty`: an array's length, read from the JSON column.
                let count = TranslatedOperand.property(counted.field, path: path)
                guard counted.isEmpty else { return count }
                return .query(.equal(try translator.value(count, like: nil, in: self), .value(.integer(0))))
            }
            // `$0.address.city`: a field of a composite attribute, read from its JSON column.
            let field = try CompositeField.member(
                keyPath, of: property, entity: path.hops.last?.destination ?? translator.entity,
                in: PredicateTranslator.nodeName(of: self))
            return .property(field, path: path)
        default:
            return try translateMember(with: translator)
        }
    }
}

extension PredicateExpressions.KeyPath {
    /// A member of a computed value, such as `$0.title.count`.
    private func translateMember(with translator: PredicateTranslator) throws -> TranslatedOperand {
        guard Root.Output.self == String.self else {
            throw translator.unsupported(
                self,
                "a key path on a \(Root.Output.self) value is not translated; "
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
