import Foundation

extension FormatTranslator {
    /// `NOT condition` under Strata's two-valued rule for format predicates.
    ///
    /// Every comparison is true or false, never unknown: one that reads nil (`notes CONTAINS "e"`,
    /// `priority > 2` on a nil value, an `@avg` over no members) is false, except `== nil` / `!= nil`
    /// which test for it. `NOT` negates that, so `NOT (notes CONTAINS "e")` matches rows whose `notes` is
    /// nil, just as `notes != "e"` does. This is how `NSPredicate` evaluates objects in memory.
    ///
    /// SQL's three-valued logic differs only under `NOT` (a `WHERE` already drops unknown rows), so an
    /// operand that can be unknown is read as false first: `NOT coalesce(condition, 0)`.
    static func negation(_ condition: QueryExpression) -> QueryExpression {
        .not(condition.isTwoValued ? condition : .function(.coalesce, [condition, .value(.integer(0))]))
    }
}

extension QueryExpression {
    /// Whether the condition is never null (`IS`, `IS NULL`, `EXISTS`, a constant, `coalesce(…, 0)`, and
    /// `AND`/`OR`/`NOT` of such conditions).
    var isTwoValued: Bool {
        switch self {
        case .constant, .equal, .notEqual, .isNull, .exists: true
        case .not(let operand): operand.isTwoValued
        case .and(let operands), .or(let operands): operands.allSatisfy(\.isTwoValued)
        case .function(.coalesce, let arguments): arguments.last == .value(.integer(0))
        default: false
        }
    }
}
