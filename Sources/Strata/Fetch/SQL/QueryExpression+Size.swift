extension QueryExpression {
    /// An upper estimate of how deep SQLite's parse tree of the rendered SQL is: one level per operator,
    /// function call and `NOT`, one per operator of an `AND`/`OR` chain (SQLite nests `a OR b OR c` to the
    /// left), and a correlated subquery's joins and condition on top of its node. SQLite refuses
    /// expressions deeper than 1000 levels (`SQLITE_MAX_EXPR_DEPTH`).
    package var sqlHeight: Int {
        switch self {
        case .column, .value, .constant:
            return 1
        case .equal(let left, let right), .notEqual(let left, let right), .compare(let left, _, let right),
            .arithmetic(_, let left, let right, _):
            return 1 + Swift.max(left.sqlHeight, right.sqlHeight)
        case .and(let operands), .or(let operands):
            return Swift.max(operands.count - 1, 0) + 1 + (operands.map(\.sqlHeight).max() ?? 0)
        case .not(let operand), .isNull(let operand), .collated(let operand, _):
            return 1 + operand.sqlHeight
        case .function(_, let operands):
            return 1 + (operands.map(\.sqlHeight).max() ?? 0)
        case .in(let operand, let list):
            return 1 + Swift.max(operand.sqlHeight, list.map(\.sqlHeight).max() ?? 0)
        case .between(let operand, let lower, let upper), .case(let operand, let lower, let upper):
            return 2 + Swift.max(operand.sqlHeight, lower.sqlHeight, upper.sqlHeight)
        case .related(let path, let expression):
            return Self.subqueryHeight(hops: path.hops.count, inner: expression.sqlHeight)
        case .exists(let query), .relatedCount(let query):
            return Self.subqueryHeight(hops: query.path.hops.count, inner: query.condition?.sqlHeight ?? 1)
        case .relatedAggregate(_, let query, let expression):
            return Self.subqueryHeight(
                hops: query.path.hops.count,
                inner: Swift.max(expression.sqlHeight, query.condition?.sqlHeight ?? 1))
        }
    }

    /// A subquery: its node, the `AND` chain of two join equalities per hop (a join table needs two), and
    /// the expression inside.
    private static func subqueryHeight(hops: Int, inner: Int) -> Int {
        2 + 2 * hops + 2 + inner
    }

    /// An upper estimate of how many entries SQLite's parser stack holds while reading the rendered SQL at
    /// its most nested point: each construct costs what its parser keeps pending while it reads the nested
    /// part (measured on SQLite 3.40: 1 for a parenthesized left operand, 2 for `NOT`, 3 for a right operand,
    /// more for later function arguments and list members, about 10 for a subquery's condition). SQLite
    /// built with a fixed parser stack (`YYSTACKDEPTH`, 100 by default) fails deeper SQL with "parser stack
    /// overflow", far below its expression depth limit.
    package var sqlParserDepth: Int {
        switch self {
        case .column, .value, .constant:
            return 1
        case .equal(let left, let right), .notEqual(let left, let right), .compare(let left, _, let right),
            .arithmetic(_, let left, let right, _):
            return Swift.max(1 + left.sqlParserDepth, 3 + right.sqlParserDepth)
        case .and(let operands), .or(let operands):
            return operands.enumerated().map { ($0.offset == 0 ? 1 : 3) + $0.element.sqlParserDepth }.max() ?? 1
        case .not(let operand):
            return 2 + operand.sqlParserDepth
        case .isNull(let operand), .collated(let operand, _):
            return 1 + operand.sqlParserDepth
        case .function(_, let arguments):
            return arguments.enumerated().map { 3 + 2 * $0.offset + $0.element.sqlParserDepth }.max() ?? 3
        case .in(let operand, let list):
            return Swift.max(1 + operand.sqlParserDepth, 6 + (list.map(\.sqlParserDepth).max() ?? 0))
        case .between(let operand, let lower, let upper):
            return Swift.max(1 + operand.sqlParserDepth, 3 + lower.sqlParserDepth, 5 + upper.sqlParserDepth)
        case .case(let condition, let then, let otherwise):
            return Swift.max(2 + condition.sqlParserDepth, 4 + then.sqlParserDepth, 4 + otherwise.sqlParserDepth)
        case .related(_, let expression):
            return 5 + expression.sqlParserDepth
        case .exists(let query), .relatedCount(let query):
            return 10 + (query.condition?.sqlParserDepth ?? 1)
        case .relatedAggregate(_, let query, let expression):
            return Swift.max(7 + expression.sqlParserDepth, 10 + (query.condition?.sqlParserDepth ?? 1))
        }
    }

    /// How many values the rendered SQL binds (one per `.value`). SQLite binds at most 32,766 per statement
    /// (`SQLITE_MAX_VARIABLE_NUMBER`).
    package var boundValueCount: Int {
        var count = 0
        forEachValue { _ in count += 1 }
        return count
    }
}
