import Foundation

/// Translates a Foundation `Predicate` over one entity into a store-neutral `QueryExpression`.
///
/// Each supported `PredicateExpressions` node conforms to `QueryTranslatable` in its own file; a subtree that does
/// not read the predicate's input is evaluated once and bound as a value; any other node throws
/// `StrataError.unsupportedPredicate` naming it.
package struct PredicateTranslator {
    package let entity: Schema.Entity
    package let variable: PredicateExpressions.VariableID
    /// The permanent identifiers of models saved since an app captured their temporary ones, by temporary
    /// identifier: a captured identifier names the row its model was saved as.
    package var permanentIdentifiers: [PersistentIdentifier: PersistentIdentifier] = [:]
    /// What the variables of enclosing closures (`summary.flatMap { $0.count }`) stand for.
    package private(set) var bindings: [PredicateExpressions.VariableID: TranslatedOperand] = [:]

    package init(entity: Schema.Entity, variable: PredicateExpressions.VariableID) {
        self.entity = entity
        self.variable = variable
    }

    /// This translator with `variable` standing for `operand`.
    package func binding(
        _ variable: PredicateExpressions.VariableID, to operand: TranslatedOperand
    ) -> PredicateTranslator {
        var translator = self
        translator.bindings[variable] = operand
        return translator
    }

    /// Translates a whole predicate; a temporary identifier among `permanentIdentifiers`' keys names the row its
    /// model was saved as.
    /// - Throws: `StrataError.unsupportedPredicate` for an expression that can't run in the store.
    package static func translate<T: PersistentModel>(
        _ predicate: Predicate<T>, entity: Schema.Entity,
        permanentIdentifiers: [PersistentIdentifier: PersistentIdentifier] = [:]
    ) throws -> QueryExpression {
        var translator = PredicateTranslator(entity: entity, variable: predicate.variable.key)
        translator.permanentIdentifiers = permanentIdentifiers
        return try translator.condition(predicate.expression)
    }

    /// Translates a Boolean-valued expression into a condition.
    package func condition(_ expression: Any) throws -> QueryExpression {
        let translated = try operand(expression)
        switch translated {
        case .query(let query): return query
        case .property:
            return .equal(try value(translated, like: nil, in: expression), .value(.integer(1)))
        case .model, .models:
            throw unsupported(expression, "a model or relationship is not a Boolean condition")
        case .constant(let value):
            guard let truth = value as? Bool else {
                throw unsupported(expression, "it is not a Boolean condition")
            }
            return .constant(truth)
        }
    }

    /// Translates any expression into an operand: a property, a constant, or a computed query expression.
    package func operand(_ expression: Any) throws -> TranslatedOperand {
        if let constant = Self.constantValue(of: expression) {
            return .constant(constant.value)
        }
        guard let translatable = PredicateNodeConformances.translatable(expression) else {
            throw unsupported(expression, "Strata does not translate \(Self.nodeName(of: expression)) to SQL yet")
        }
        return try translatable.translate(with: self)
    }

    /// The query expression for an operand; constants are encoded like `counterpart` (a property) encodes values.
    package func value(
        _ operand: TranslatedOperand, like counterpart: TranslatedOperand?, in expression: Any
    ) throws -> QueryExpression {
        switch operand {
        case .query(let query): return query
        case .property(let property, let path):
            return path.hops.isEmpty ? .attribute(property) : .related(path, .attribute(property))
        case .model(let path):
            return Self.primaryKey(of: path)
        case .models:
            throw unsupported(
                expression,
                "a to-many relationship is not a value; test it with isEmpty, count, "
                    + "contains(where:) or allSatisfy")
        case .constant(let value):
            if case .property(let property, _)? = counterpart, let stored = try property.encodeAny(value) {
                return .constant(stored, comparedWith: property)
            }
            if let captured = Self.identifier(in: value) {
                let identifier = captured.isTemporary ? permanentIdentifiers[captured] ?? captured : captured
                // An identifier of another hierarchy names no row of this entity: `0`, which no row has. One of
                // the same hierarchy (a subclass's row in a fetch of the base, or the base's identifier of a
                // subclass's row) names the row with its key.
                if case .model(let path)? = counterpart,
                    !(path.hops.last?.destination ?? entity).sharesRows(withEntityNamed: identifier.entityName)
                {
                    return .value(.integer(0))
                }
                // A temporary identifier of a model still unsaved matches it in memory and no stored row.
                return .value(.integer(identifier.queryKey))
            }
            guard let stored = try Self.storedValue(forConstant: value) else {
                throw unsupported(expression, "the value \(value) of type \(type(of: value)) can't be stored")
            }
            return .value(stored)
        }
    }

    package func unsupported(_ expression: Any, _ reason: String) -> StrataError {
        .unsupportedPredicate(expression: Self.nodeName(of: expression), reason: reason)
    }

    /// A readable name for a predicate node: its type without module prefixes.
    package static func nodeName(of expression: Any) -> String {
        String(describing: type(of: expression))
            .replacingOccurrences(of: "Foundation.", with: "")
    }
}

/// What an expression translates to.
package enum TranslatedOperand {
    /// A persistent attribute of the entity in scope, or of the model reached from it through `path`'s to-one
    /// relationships (`$0.author?.name`).
    case property(any AnyPersistentProperty, path: RelatedPath)
    /// A model: the input itself (no hops) or one reached through to-one relationships; its value is its
    /// primary key (a foreign key column for a relationship).
    case model(RelatedPath)
    /// The models of a to-many relationship, possibly filtered.
    case models(RelatedQuery)
    /// A value known before the query runs.
    case constant(Any)
    /// A computed expression.
    case query(QueryExpression)
}

/// A `PredicateExpressions` node that Strata can run in the store.
package protocol QueryTranslatable {
    func translate(with translator: PredicateTranslator) throws -> TranslatedOperand
}
