import Foundation

extension FormatExpression {
    /// The most members one `AND` / `OR` may hold. SQLite nests a chain `a OR b OR c …` one level per
    /// operator and refuses expressions deeper than 1000 levels, so a long chain fails there; Strata
    /// refuses it first, with this limit in the message. Use `IN` with a list for many alternatives.
    package static let maximumCompoundMembers = 500
    /// The most values one list (`IN {…}`, an array argument, a `{…}` aggregate) may hold. Each value is
    /// bound separately, and SQLite binds at most 32,766 values per statement.
    package static let maximumListCount = 10_000

    /// A sentence naming the first `AND`/`OR` or list over its limit, its size and the limit; `nil` when
    /// the tree is within them. Recurses only as deep as the tree (capped by ``maximumTreeDepth``).
    var sizeViolation: String? {
        switch self {
        case .constant:
            return nil
        case .not(let operand):
            return operand.sizeViolation
        case .and(let members), .or(let members):
            if members.count > Self.maximumCompoundMembers {
                let joiner = if case .and = self { "AND" } else { "OR" }
                return "The predicate joins \(members.count) predicates with \(joiner); Strata's limit is "
                    + "\(Self.maximumCompoundMembers) (use IN with a list for many alternatives)"
            }
            return members.lazy.compactMap(\.sizeViolation).first
        case .comparison(let lhs, _, let rhs, _, _):
            return lhs.sizeViolation ?? rhs.sizeViolation
        case .between(let value, let lower, let upper):
            return value.sizeViolation ?? lower.sizeViolation ?? upper.sizeViolation
        }
    }
}

extension FormatOperand {
    /// The first list over ``FormatExpression/maximumListCount`` values, or a subquery's oversized predicate.
    fileprivate var sizeViolation: String? {
        let count: Int
        switch self {
        case .keyPath, .evaluatedObject, .variable, .variableKeyPath:
            return nil
        case .value(let value):
            count = value.listCount
        case .aggregate(let members):
            count = members.count
            if count <= FormatExpression.maximumListCount { return members.lazy.compactMap(\.sizeViolation).first }
        case .function(_, let members):
            return members.lazy.compactMap(\.sizeViolation).first
        case .subquery(let collection, _, let predicate):
            return collection.sizeViolation ?? predicate.sizeViolation
        case .collectionOperation(let base, _, _):
            return base.sizeViolation
        case .arithmetic(let lhs, _, let rhs):
            return lhs.sizeViolation ?? rhs.sizeViolation
        }
        guard count > FormatExpression.maximumListCount else { return nil }
        return "A list holds \(count) values; Strata's limit is \(FormatExpression.maximumListCount)"
    }
}

extension FormatValue {
    /// The number of values in a list, counting nested lists' members; 0 for a single value.
    fileprivate var listCount: Int {
        guard case .array(let values) = self else { return 0 }
        return values.reduce(values.count) { $0 + $1.listCount }
    }
}
