// SQLite's spelling of the store-neutral query tree; PostgreSQL's is `PostgresQueryWriter` in StrataPostgres.
extension QueryExpression {
    /// `expression` as SQLite's SQL in `scope`: how a subquery spells its condition.
    static func sqlite(_ expression: QueryExpression, in scope: SQLScope) -> SQLFragment {
        expression.sql(in: scope)
    }

    /// The expression as SQL over the fetched entity's table (unaliased), with every value bound.
    package var sql: SQLFragment { sql(in: .root) }

    /// The expression as SQL in `scope`, with every value bound.
    package func sql(in scope: SQLScope) -> SQLFragment {
        switch self {
        case .column(let name):
            return scope.column(name)
        case .value(let value):
            return .binding(value)
        case .constant(let truth):
            return SQLFragment(sql: truth ? "1" : "0")
        case .equal(let left, let right):
            return Self.infix(left, "IS", right, scope)
        case .notEqual(let left, let right):
            return Self.infix(left, "IS NOT", right, scope)
        case .compare(let left, let comparison, let right):
            return Self.infix(left, comparison.rawValue, right, scope)
        case .and(let operands):
            guard !operands.isEmpty else { return SQLFragment(sql: "1") }
            return Self.parenthesized(.joined(operands.map { $0.sql(in: scope) }, separator: " AND "))
        case .or(let operands):
            guard !operands.isEmpty else { return SQLFragment(sql: "0") }
            return Self.parenthesized(.joined(operands.map { $0.sql(in: scope) }, separator: " OR "))
        case .not(let operand):
            return SQLFragment(sql: "(NOT ") + operand.sql(in: scope) + SQLFragment(sql: ")")
        case .arithmetic(let op, let left, let right, let bounds?):
            return Self.call(
                .checkedArithmetic(op),
                [left, right, .value(.integer(bounds.lowerBound)), .value(.integer(bounds.upperBound))], scope)
        case .arithmetic(let op, let left, let right, nil):
            return Self.infix(left, op.rawValue, right, scope)
        case .function(.compositeField(let path), let arguments):
            return Self.compositeField(path, arguments, scope)
        case .function(.compositeContains(let path), let arguments):
            // Text elements compare as Swift's `==` does, under the STRATA_SWIFT collation.
            let collation = path.scalar == .text ? SQLFragment([.collation(.swift)]) : SQLFragment(sql: "")
            return SQLFragment(sql: "EXISTS (SELECT 1 FROM json_each(") + arguments[0].sql(in: scope)
                + SQLFragment(sql: ", \(path.sqliteLiteral)) WHERE json_each.value = ") + arguments[1].sql(in: scope)
                + collation
                + SQLFragment(sql: ")")
        case .function(let function, let arguments):
            return Self.call(function, arguments, scope)
        case .isNull(let operand):
            return Self.parenthesized(operand.sql(in: scope) + SQLFragment(sql: " IS NULL"))
        case .in(let operand, let list):
            guard !list.isEmpty else { return SQLFragment(sql: "0") }
            if let values = Self.boundValues(list) {
                // A list of values (the keys a fetch with unsaved changes leaves out): one fragment, one segment
                // per value, instead of a fragment per value joined.
                var sql = SQLFragment(sql: "(")
                sql.append(operand.sql(in: scope))
                sql.append(sql: " IN (")
                for (position, value) in values.enumerated() {
                    if position > 0 { sql.append(sql: ", ") }
                    sql.append(binding: value)
                }
                sql.append(sql: "))")
                return sql
            }
            return Self.parenthesized(
                operand.sql(in: scope) + SQLFragment(sql: " IN (")
                    + .joined(list.map { $0.sql(in: scope) }, separator: ", ") + SQLFragment(sql: ")"))
        case .between(let operand, let lower, let upper):
            return Self.parenthesized(
                operand.sql(in: scope) + SQLFragment(sql: " BETWEEN ") + lower.sql(in: scope)
                    + SQLFragment(sql: " AND ") + upper.sql(in: scope))
        case .case(let condition, let then, let otherwise):
            return SQLFragment(sql: "CASE WHEN ") + condition.sql(in: scope) + SQLFragment(sql: " THEN ")
                + then.sql(in: scope)
                + SQLFragment(sql: " ELSE ") + otherwise.sql(in: scope) + SQLFragment(sql: " END")
        case .collated(let operand, let collation):
            return operand.sql(in: scope) + SQLFragment([.collation(collation)])
        case .related(let path, let expression):
            return scope.subquery(through: path.hops, condition: nil, spell: Self.sqlite) { inner in
                expression.sql(in: inner)
            }
        case .exists(let query):
            return SQLFragment(sql: "EXISTS ")
                + scope.subquery(through: query.path.hops, condition: query.condition, spell: Self.sqlite) { _ in
                    SQLFragment(sql: "1")
                }
        case .relatedCount(let query):
            return scope.subquery(through: query.path.hops, condition: query.condition, spell: Self.sqlite) { _ in
                SQLFragment(sql: "count(*)")
            }
        case .relatedAggregate(let aggregate, let query, let expression):
            return scope.subquery(through: query.path.hops, condition: query.condition, spell: Self.sqlite) { inner in
                aggregate.sql(of: expression.sql(in: inner))
            }
        }
    }

    private static func infix(
        _ left: QueryExpression, _ op: String, _ right: QueryExpression, _ scope: SQLScope
    ) -> SQLFragment {
        parenthesized(left.sql(in: scope) + SQLFragment(sql: " \(op) ") + right.sql(in: scope))
    }

    /// The values of a list made only of values; `nil` when any element is another expression.
    private static func boundValues(_ list: [QueryExpression]) -> [StoredValue]? {
        var values: [StoredValue] = []
        values.reserveCapacity(list.count)
        for element in list {
            guard case .value(let value) = element else { return nil }
            values.append(value)
        }
        return values
    }

    private static func parenthesized(_ fragment: SQLFragment) -> SQLFragment {
        SQLFragment(sql: "(") + fragment + SQLFragment(sql: ")")
    }

    /// `json_extract(column, '$."city"')`, the path a literal so an index on the same expression serves it. A real
    /// field's infinities are the strings Strata's encoder writes; as numbers they order as the column's do.
    private static func compositeField(
        _ path: CompositeFieldPath, _ arguments: [QueryExpression], _ scope: SQLScope
    ) -> SQLFragment {
        let name =
            path.scalar == .elementCount ? SQLFragment(sql: "json_array_length") : .function(.compositeField(path))
        let extract =
            name + SQLFragment(sql: "(") + .joined(arguments.map { $0.sql(in: scope) }, separator: ", ")
            + SQLFragment(sql: ", \(path.sqliteLiteral))")
        guard path.scalar == .real else { return extract }
        return SQLFragment(sql: "(CASE ") + extract
            + SQLFragment(sql: " WHEN '+Infinity' THEN 9e999 WHEN '-Infinity' THEN -9e999 ELSE ")
            + extract + SQLFragment(sql: " END)")
    }

    private static func call(
        _ function: QueryFunction, _ arguments: [QueryExpression], _ scope: SQLScope
    ) -> SQLFragment {
        .function(function) + SQLFragment(sql: "(") + .joined(arguments.map { $0.sql(in: scope) }, separator: ", ")
            + SQLFragment(sql: ")")
    }
}

extension QueryAggregate {
    /// The SQLite aggregate of `operand`: `sum(operand)`.
    package func sql(of operand: SQLFragment) -> SQLFragment {
        SQLFragment(sql: sqlName + "(") + operand + SQLFragment(sql: ")")
    }

    /// The SQLite aggregate function: SQL's own, or Strata's IEEE sum and average (`strata_real_sum`,
    /// `strata_real_avg`) for floating-point attributes.
    package var sqlName: String {
        switch self {
        // SQLite's integer sum fails on overflow (of any partial sum).
        case .sum, .integerSum: "sum"
        case .average: "avg"
        case .minimum, .floatingMinimum: "min"
        case .maximum, .floatingMaximum: "max"
        // Registered by SQLiteFunctions under these names.
        case .floatingSum: "strata_real_sum"
        case .floatingAverage: "strata_real_avg"
        }
    }
}
