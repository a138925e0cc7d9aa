import Foundation

extension FormatTranslator {
    /// A comparison prefixed by `ANY`/`SOME`/`ALL`/`NONE`.
    ///
    /// - Throws: `StrataError.unsupportedPredicate`: relationship aggregates are not translated yet.
    func quantified(
        _ quantifier: Quantifier, _ lhs: FormatOperand, _ op: ComparisonOperator, _ rhs: FormatOperand,
        options: ComparisonOptions, in expression: FormatExpression
    ) throws -> QueryExpression {
        throw relationshipsUnsupported(expression)
    }

    /// A key path through relationships, such as `author.name`.
    ///
    /// - Throws: `StrataError.unsupportedPredicate`: paths through relationships are not translated yet.
    func relationshipKeyPath(_ components: [String], in expression: FormatExpression) throws -> LoweredOperand {
        throw relationshipsUnsupported(expression)
    }

    /// `element IN relationship.path`.
    ///
    /// - Throws: `StrataError.unsupportedPredicate`: relationship membership is not translated yet.
    func relationshipMembership(
        _ element: LoweredOperand, _ components: [String], options: ComparisonOptions, in expression: FormatExpression
    ) throws -> QueryExpression {
        throw relationshipsUnsupported(expression)
    }

    /// `SUBQUERY(…)` and `@count`/`@sum`/`@avg`/`@min`/`@max`.
    ///
    /// - Throws: `StrataError.unsupportedPredicate`: relationship aggregates are not translated yet.
    func relationshipOperand(_ operand: FormatOperand, in expression: FormatExpression) throws -> LoweredOperand {
        throw relationshipsUnsupported(expression)
    }

    private func relationshipsUnsupported(_ expression: FormatExpression) -> StrataError {
        unsupported(expression, "key paths through relationships, ANY/ALL/NONE, SUBQUERY and @ aggregates are not translated yet")
    }
}
