import Foundation

extension PredicateTranslator {
    /// The property `keyPath` names on the model reached through `path` (the entity in scope when empty):
    /// an attribute, or a further hop across a relationship.
    ///
    /// - Throws: `StrataError.unsupportedPredicate` when `keyPath` is not a persistent property there.
    func member(_ keyPath: AnyKeyPath, of path: RelatedPath, in expression: Any) throws -> TranslatedOperand {
        let owner = path.hops.last?.destination ?? entity
        // A subclass's property read through a cast (`($0 as? Dog)?.breed`) is a column of the same table.
        guard
            let property = owner.property(for: keyPath)
                ?? owner.selfAndDescendants.lazy.compactMap({ $0.property(for: keyPath) }).first
        else {
            // Asked only now: making the generic key path `\T.persistentModelID` costs more than the lookup above.
            if keyPath == Self.identifierKeyPath(of: owner.modelType) { return .model(path) }
            throw unsupported(
                expression, "\(keyPath) is not a persistent property of \(owner.name) (is it @Transient or computed?)")
        }
        if case .attribute = property.kind { return .property(property, path: path) }
        guard let hop = RelationshipHop(owner: owner, relationshipIndex: property.index) else {
            throw unsupported(expression, "\(owner.name).\(property.name) is not a relationship the container resolved")
        }
        let reached = RelatedPath(hops: path.hops + [hop])
        return hop.relationship.isToMany ? .models(RelatedQuery(path: reached)) : .model(reached)
    }

    /// A translator for the closure of `contains(where:)`, `allSatisfy` or `filter` over `query`'s models: its
    /// input is each destination model, and nothing of the enclosing scope is visible.
    func scoped(
        to query: RelatedQuery, variable: PredicateExpressions.VariableID, in expression: Any
    ) throws -> PredicateTranslator {
        guard let destination = query.path.hops.last?.destination else {
            throw unsupported(expression, "it is not over a relationship")
        }
        return PredicateTranslator(entity: destination, variable: variable)
    }

    /// The models of a to-many relationship `sequence` translates to.
    ///
    /// - Throws: `StrataError.unsupportedPredicate` for any other sequence.
    func relatedModels(_ sequence: Any, in expression: Any) throws -> RelatedQuery {
        guard case .models(let query) = try operand(sequence) else {
            throw unsupported(
                expression, "only a to-many relationship's models can be searched with a closure in the store")
        }
        return query
    }

    /// The primary key of the model at the end of `path`: the input's own key, or the last hop's foreign key.
    static func primaryKey(of path: RelatedPath) -> QueryExpression {
        guard let last = path.hops.last else { return .column(StoreLayout.primaryKeyColumn) }
        let foreignKey = QueryExpression.column(last.relationship.name)
        let before = RelatedPath(hops: Array(path.hops.dropLast()))
        return before.hops.isEmpty ? foreignKey : .related(before, foreignKey)
    }

    private static func identifierKeyPath<T: PersistentModel>(of _: T.Type) -> AnyKeyPath { \T.persistentModelID }

    /// The identifier a constant holds (seeing through `Optional`): a `PersistentIdentifier`, or a model's.
    static func identifier(in value: Any) -> PersistentIdentifier? {
        if let optional = value as? any OptionalProtocol {
            return optional.wrappedValue.flatMap(identifier(in:))
        }
        return (value as? PersistentIdentifier) ?? (value as? any PersistentModel)?.persistentModelID
    }

    /// Whether comparing `left` with `right` compares a model with an identifier of another hierarchy, which no
    /// row of its entity has. (A temporary identifier is compared: it matches its unsaved model in memory.)
    func comparesWithAbsentIdentifier(_ left: TranslatedOperand, _ right: TranslatedOperand) -> Bool {
        for (operand, other) in [(left, right), (right, left)] {
            guard case .model(let path) = other, case .constant(let value) = operand,
                let identifier = Self.identifier(in: value)
            else { continue }
            let entity = path.hops.last?.destination ?? entity
            if !entity.sharesRows(withEntityNamed: identifier.entityName) { return true }
        }
        return false
    }

    /// `second`, and `first` too when there is one.
    static func conjunction(_ first: QueryExpression?, _ second: QueryExpression) -> QueryExpression {
        guard let first else { return second }
        return .and([first, second])
    }
}
