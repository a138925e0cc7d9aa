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
            return SQLFragment(sql: "(") + .joined(operands.map(\.sql), separator: " AND ") + SQLFragment(sql: ")")
        case .or(let operands):
            guard !operands.isEmpty else { return SQLFragment(sql: "0") }
            return SQLFragment(sql: "(") + .joined(operands.map(\.sql), separator: " OR ") + SQLFragment(sql: ")")
        case .not(let operand):
            return SQLFragment(sql: "(NOT ") + operand.sql + SQLFragment(sql: ")")
        }
    }

    private static func infix(_ left: QueryExpression, _ op: String, _ right: QueryExpression) -> SQLFragment {
        SQLFragment(sql: "(") + left.sql + SQLFragment(sql: " \(op) ") + right.sql + SQLFragment(sql: ")")
    }
}
