import Foundation

extension FormatTranslator {
    /// The key path `operand` names on the model in scope: `tags.name` at the top level, `$t.tags.name`
    /// inside a `SUBQUERY` over `$t`; `nil` for anything else.
    func memberKeyPath(_ operand: FormatOperand) -> [String]? {
        switch operand {
        case .keyPath(let components) where subqueryVariable == nil: components
        case .variableKeyPath(let name, let components) where name == subqueryVariable: components
        default: nil
        }
    }

    /// Whether some member reached through the to-many relationships of `components` satisfies `condition`,
    /// which receives a translator over the member and the key path left inside it. Several to-many
    /// relationships on the path (`projects.tasks.title`) flatten, as Core Data's key-value coding does:
    /// one `EXISTS` nests inside the other. `nil` when the path crosses no to-many relationship.
    ///
    /// - Throws: `StrataError.unsupportedPredicate` for unknown keys, or a path ending at the to-many
    ///   relationship itself (`ANY tags == …` compares whole models, which the store can't).
    func existsMember(
        _ components: [String], in expression: FormatExpression,
        where condition: (FormatTranslator, FormatOperand) throws -> QueryExpression
    ) throws -> QueryExpression? {
        guard
            components.count > 1
                || entity.property(named: components.first ?? "")?.relationshipDestination?.isToMany == true
        else { return nil }
        let path = try splitRelationshipPath(components, in: expression)
        guard let toMany = path.toMany else { return nil }
        guard !path.rest.isEmpty else {
            throw unsupported(
                expression,
                "\(components.joined(separator: ".")) is a to-many relationship; compare one of "
                    + "its members' attributes (such as tags.name) or its @count")
        }
        let member = FormatTranslator(entity: path.destination)
        let inner =
            try member.existsMember(path.rest, in: expression, where: condition)
            ?? condition(member, .keyPath(path.rest))
        return .exists(RelatedQuery(path: RelatedPath(hops: path.hops + [toMany]), condition: inner))
    }

    /// A comparison prefixed by `ANY`/`SOME`/`ALL`/`NONE` on a to-many key path (`ANY tags.name ==[c] "swift"`),
    /// and a comparison without one whose left key path crosses a to-many relationship (`tags.name == "swift"`
    /// means `ANY`, as in Core Data): an `EXISTS` over the related models.
    ///
    /// `ALL` holds when no member fails the comparison (so it holds for no members, as in Core Data), and a
    /// member whose value is nil fails every comparison except `== nil` (Strata's two-valued rule).
    ///
    /// - Throws: `StrataError.unsupportedPredicate` when the left side is not a key path through a to-many
    ///   relationship, or the right side is not a constant.
    func quantified(
        _ quantifier: Quantifier, _ lhs: FormatOperand, _ op: ComparisonOperator, _ rhs: FormatOperand,
        options: ComparisonOptions, in expression: FormatExpression
    ) throws -> QueryExpression {
        guard let components = memberKeyPath(lhs) else {
            throw unsupported(
                expression, "\(quantifier.rawValue) needs a key path through a to-many relationship on its left")
        }
        guard !rhs.readsKeyPath else {
            throw unsupported(expression, "the right side of \(quantifier.rawValue) must be a constant")
        }
        let compare = { (member: FormatTranslator, operand: FormatOperand) throws -> QueryExpression in
            let condition = try member.comparison(operand, op, rhs, options: options, in: expression)
            return quantifier == .all ? Self.negation(condition) : condition
        }
        guard let exists = try existsMember(components, in: expression, where: compare) else {
            throw unsupported(
                expression,
                "\(quantifier.rawValue) needs a key path through a to-many relationship "
                    + "to one of its members' attributes, such as tags.name")
        }
        return quantifier == .any ? exists : .not(exists)
    }

    /// `value BETWEEN {lower, upper}` where `value` crosses a to-many relationship: `ANY` member in range.
    /// `nil` when the value's key path crosses none.
    ///
    /// - Throws: `StrataError.unsupportedPredicate` when a bound reads a key path, or for unknown keys.
    func quantifiedBetween(
        _ value: FormatOperand, lower: FormatOperand, upper: FormatOperand, in expression: FormatExpression
    ) throws -> QueryExpression? {
        guard let components = memberKeyPath(value) else { return nil }
        return try existsMember(components, in: expression) { member, operand in
            guard !lower.readsKeyPath, !upper.readsKeyPath else {
                throw unsupported(expression, "the bounds of BETWEEN on a to-many key path must be constants")
            }
            return try member.between(operand, lower: lower, upper: upper, in: expression)
        }
    }

    /// `element IN relationship.path`: `ANY relationship.path == element` for a to-many path, a substring
    /// test for a to-one path ending in text.
    ///
    /// - Throws: `StrataError.unsupportedPredicate` when the element is not a constant.
    func relationshipMembership(
        _ element: LoweredOperand, _ collection: FormatOperand, options: ComparisonOptions,
        in expression: FormatExpression
    ) throws -> QueryExpression {
        guard let components = memberKeyPath(collection),
            try splitRelationshipPath(components, in: expression).toMany != nil
        else {
            let text = try operand(collection, in: expression)
            return .function(
                .contains,
                [try self.text(text, in: expression), try self.text(element, in: expression), Self.flags(options)])
        }
        guard case .constant(let value) = element else {
            throw unsupported(expression, "only a constant can be tested for membership in a to-many relationship")
        }
        return try quantified(.any, collection, .equal, .value(value), options: options, in: expression)
    }
}
