extension QueryExpression {
    /// The expression as SQL, with every value bound.
    package var sql: SQLFragment {
        switch self {
        case .column(let name):
            return .identifier(name)
        case .value(let value):
            return .binding(value)
        case .constant(let truth):
            return SQLFragment(sql: truth ? "1" : "0")
        case .equal(let left, let right):
            return Self.infix(left, "IS", right)
        case .notEqual(let left, let right):
            return Self.infix(left, "IS NOT", right)
        case .compare(let left, let comparison, let right):
            return Self.infix(left, comparison.rawValue, right)
        case .and(let operands):
            guard !operands.isEmpty else { return SQLFragment(sql: "1") }
            return Self.parenthesized(.joined(operands.map(\.sql), separator: " AND "))
        case .or(let operands):
            guard !operands.isEmpty else { return SQLFragment(sql: "0") }
            return Self.parenthesized(.joined(operands.map(\.sql), separator: " OR "))
        case .not(let operand):
            return SQLFragment(sql: "(NOT ") + operand.sql + SQLFragment(sql: ")")
        case .arithmetic(let op, let left, let right, let bounds?):
            return Self.call(.checkedArithmetic(op), [left, right, .value(.integer(bounds.lowerBound)), .value(.integer(bounds.upperBound))])
        case .arithmetic(let op, let left, let right, nil):
            return Self.infix(left, op.rawValue, right)
        case .function(let function, let arguments):
            return Self.call(function, arguments)
        case .isNull(let operand):
            return Self.parenthesized(operand.sql + SQLFragment(sql: " IS NULL"))
        case .in(let operand, let list):
            guard !list.isEmpty else { return SQLFragment(sql: "0") }
            return Self.parenthesized(operand.sql + SQLFragment(sql: " IN (") + .joined(list.map(\.sql), separator: ", ") + SQLFragment(sql: ")"))
        case .between(let operand, let lower, let upper):
            return Self.parenthesized(operand.sql + SQLFragment(sql: " BETWEEN ") + lower.sql + SQLFragment(sql: " AND ") + upper.sql)
        case .case(let condition, let then, let otherwise):
            return SQLFragment(sql: "CASE WHEN ") + condition.sql + SQLFragment(sql: " THEN ") + then.sql
                + SQLFragment(sql: " ELSE ") + otherwise.sql + SQLFragment(sql: " END")
        }
    }

    private static func infix(_ left: QueryExpression, _ op: String, _ right: QueryExpression) -> SQLFragment {
        parenthesized(left.sql + SQLFragment(sql: " \(op) ") + right.sql)
    }

    private static func parenthesized(_ fragment: SQLFragment) -> SQLFragment {
        SQLFragment(sql: "(") + fragment + SQLFragment(sql: ")")
    }

    private static func call(_ function: QueryFunction, _ arguments: [QueryExpression]) -> SQLFragment {
        .function(function) + SQLFragment(sql: "(") + .joined(arguments.map(\.sql), separator: ", ") + SQLFragment(sql: ")")
    }
}
