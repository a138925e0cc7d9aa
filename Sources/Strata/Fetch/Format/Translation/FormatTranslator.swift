import Foundation

/// Lowers a parsed format predicate (``FormatExpression``) over one entity into the store-neutral
/// `QueryExpression` that `#Predicate`s also translate to.
///
/// Key paths are checked against the schema and only ever become quoted identifiers of schema
/// properties; every constant is bound, encoded the way the compared property stores its values.
/// Nothing typed by a user becomes SQL text.
///
/// ```swift
/// let predicate = FormatPredicate(format: "title CONTAINS[c] %@", "dune")
/// let condition = try FormatTranslator.translate(predicate, entity: entity)
/// // strata_contains("title", ?, 1)
/// ```
package struct FormatTranslator {
    /// The entity whose key paths the predicate names.
    package let entity: Schema.Entity
    /// Inside a `SUBQUERY`, the name of its iteration variable: `$x.key` reads the member being tested.
    package let subqueryVariable: String?

    /// A translator for predicates over `entity` (inside a `SUBQUERY`, over its members).
    package init(entity: Schema.Entity, subqueryVariable: String? = nil) {
        self.entity = entity
        self.subqueryVariable = subqueryVariable
    }

    /// Translates a whole predicate.
    ///
    /// - Throws: the predicate's ``PredicateFormatError`` when it failed to parse or has an unbound
    ///   variable; `StrataError.unsupportedPredicate` naming the entity and key for an unknown key,
    ///   a mistyped value or a form the store can't run, or naming the limit and the value when it
    ///   would bind more than ``maximumBoundValues`` values or nest deeper than ``maximumSQLHeight`` or
    ///   ``maximumSQLParserDepth``.
    package static func translate(_ predicate: FormatPredicate, entity: Schema.Entity) throws -> QueryExpression {
        let expression = try predicate.resolvedExpression()
        let translator = FormatTranslator(entity: entity)
        let condition = try translator.condition(expression)
        let bound = condition.boundValueCount
        if bound > maximumBoundValues {
            throw translator.unsupported(
                expression,
                "it binds \(bound) values; Strata's limit is \(maximumBoundValues) "
                    + "(SQLite's is 32766)")
        }
        let height = condition.sqlHeight
        if height > maximumSQLHeight {
            throw translator.unsupported(
                expression,
                "its SQL would nest \(height) levels deep; Strata's limit is "
                    + "\(maximumSQLHeight) (SQLite's is 1000); split it or use IN with a list")
        }
        let nesting = condition.sqlParserDepth
        if nesting > maximumSQLParserDepth {
            throw translator.unsupported(
                expression,
                "its SQL would nest \(nesting) levels deep in SQLite's parser; Strata's limit is "
                    + "\(maximumSQLParserDepth) (SQLite's parser stops at 100); nest fewer NOTs, parentheses and subqueries"
            )
        }
        return condition
    }

    /// The most values a translated predicate may bind (SQLite's limit is 32,766 per statement; the rest of
    /// the fetch binds a few more).
    package static let maximumBoundValues = 30_000
    /// The deepest SQL expression a translated predicate may become, by ``QueryExpression/sqlHeight``
    /// (SQLite's limit is 1000; the rest of the statement adds a few levels).
    package static let maximumSQLHeight = 900
    /// The deepest SQL a translated predicate may become in SQLite's parser, by
    /// ``QueryExpression/sqlParserDepth`` (SQLite's fixed parser stack holds 100 entries; the statement
    /// around the predicate takes up to about 20).
    package static let maximumSQLParserDepth = 80

    /// Translates a Boolean-valued node.
    ///
    /// - Throws: `StrataError.unsupportedPredicate` for a node the store can't run.
    package func condition(_ expression: FormatExpression) throws -> QueryExpression {
        switch expression {
        case .constant(let truth):
            return .constant(truth)
        case .not(let operand):
            return Self.negation(try condition(operand))
        case .and(let members):
            return .and(try members.map(condition))
        case .or(let members):
            return .or(try members.map(condition))
        case .comparison(let lhs, let op, let rhs, let options, let quantifier):
            if let quantifier {
                return try quantified(quantifier, lhs, op, rhs, options: options, in: expression)
            }
            return try comparison(lhs, op, rhs, options: options, in: expression)
        case .between(let value, let lower, let upper):
            return try between(value, lower: lower, upper: upper, in: expression)
        }
    }

    /// An error naming the entity and the offending part of the predicate, its constants shown as `%@`.
    package func unsupported(_ expression: FormatExpression, _ reason: String) -> StrataError {
        .unsupportedPredicate(expression: "\(entity.name): \(expression.redactedFormat)", reason: reason)
    }
}

/// What a format operand lowers to.
package enum LoweredOperand {
    /// A stored attribute (or to-one foreign key) of `owner` reached by a key path, and the expression reading it.
    case property(any AnyPersistentProperty, QueryExpression, owner: Schema.Entity)
    /// A constant, still unencoded: it is encoded like the property it is compared with.
    case constant(FormatValue)
    /// A computed value (arithmetic, a function, an aggregate).
    case computed(QueryExpression)

    /// `Entity.property` for the property this operand reads, for error messages.
    var propertyName: String {
        if case .property(let property, _, let owner) = self { return "\(owner.name).\(property.name)" }
        return "the value"
    }

    /// Whether the operand may be NaN: a floating-point attribute, floating-point arithmetic or an aggregate of a
    /// floating-point attribute.
    var mayHoldNaN: Bool {
        switch self {
        case .property(let property, _, _): property.mayHoldNaN
        case .computed(let query): query.mayBeNaN
        case .constant: false
        }
    }

    /// The property this operand reads, if it reads one directly.
    var property: (any AnyPersistentProperty)? {
        if case .property(let property, _, _) = self { return property }
        return nil
    }
}
