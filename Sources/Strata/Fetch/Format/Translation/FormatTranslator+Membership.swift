import Foundation

extension FormatTranslator {
    /// `element IN collection` (and `collection CONTAINS element` for a constant list).
    ///
    /// A list (`{1, 2}`, an array argument, a `{…}` with key paths) becomes `IN (…)`, with
    /// `IS NULL` added when the list holds `nil`; a string on the right (`"b" IN name`) is a
    /// substring test; a to-many relationship is a membership test on the related models.
    ///
    /// - Throws: `StrataError.unsupportedPredicate` for a collection that is not a list, a string or a
    ///   relationship, or for members that don't fit the element's property.
    func membership(
        _ element: LoweredOperand, in collection: FormatOperand, options: ComparisonOptions,
        in expression: FormatExpression
    ) throws -> QueryExpression {
        if let components = memberKeyPath(collection),
            components.count > 1 || entity.property(named: components.first ?? "")?.relationshipDestination != nil
        {
            return try relationshipMembership(element, collection, options: options, in: expression)
        }
        let members: [LoweredOperand]
        switch collection {
        case .value(.array(let values)):
            members = values.map { .constant($0) }
        case .aggregate(let operands):
            members = try operands.map { try operand($0, in: expression) }
        default:
            let text = try operand(collection, in: expression)
            return .function(
                .contains,
                [
                    try self.text(text, in: expression), try self.text(element, in: expression), Self.flags(options),
                ])
        }
        let nonNull = members.filter { if case .constant(.null) = $0 { return false } else { return true } }
        let subject: QueryExpression
        let list: [QueryExpression]
        if options.isEmpty {
            subject = try value(element, like: nil, in: expression)
            list = try nonNull.map { try value($0, like: element, in: expression) }
        } else {
            subject = try fold(element, options: options, in: expression)
            list = try nonNull.map { try fold($0, options: options, in: expression) }
        }
        let test = QueryExpression.in(subject, list)
        return nonNull.count == members.count ? test : .or([.isNull(subject), test])
    }

    /// `value BETWEEN {lower, upper}`, inclusive at both ends, bounds encoded like the value; `ANY` member
    /// in range when `value` crosses a to-many relationship.
    ///
    /// - Throws: `StrataError.unsupportedPredicate` for an unknown key or mistyped bounds.
    func between(
        _ value: FormatOperand, lower: FormatOperand, upper: FormatOperand, in expression: FormatExpression
    ) throws -> QueryExpression {
        if let any = try quantifiedBetween(value, lower: lower, upper: upper, in: expression) { return any }
        let subject = try operand(value, in: expression)
        let low = try operand(lower, in: expression)
        let high = try operand(upper, in: expression)
        return .between(
            try self.value(subject, like: low, in: expression),
            lower: try self.value(low, like: subject, in: expression),
            upper: try self.value(high, like: subject, in: expression))
    }
}
