extension SelectStatement {
    /// The SQL of an aggregate fetch: the keys, then one column per aggregate, one row per group.
    ///
    /// The rows are first reduced to their keys and operands in a derived table, so a to-one path is spelled once
    /// however many aggregates and sort keys use it; SQLite and PostgreSQL both flatten it into the grouping.
    /// - Throws: what the writer throws for the condition, a key, an operand or a sort key.
    package func aggregate(_ request: StoreAggregate) throws -> SQLFragment {
        var inner: [SQLFragment] = []
        for (index, key) in request.keys.enumerated() {
            inner.append(
                try writer.value(key) + SQLFragment([.text(" AS "), .identifier(StoreAggregate.keyColumn(index))]))
        }
        for (index, operand) in request.operands.enumerated() {
            inner.append(
                try writer.value(operand)
                    + SQLFragment([.text(" AS "), .identifier(StoreAggregate.operandColumn(index))]))
        }
        if inner.isEmpty { inner.append(SQLFragment(sql: "1")) }
        var outer: [SQLFragment] = request.keys.indices.map { .identifier(StoreAggregate.keyColumn($0)) }
        for (index, column) in request.columns.enumerated() {
            outer.append(
                try aggregateColumn(column)
                    + SQLFragment([.text(" AS "), .identifier(StoreAggregate.resultColumn(index))]))
        }
        var sql = SQLFragment(sql: "SELECT ") + .joined(outer, separator: ", ") + SQLFragment(sql: " FROM (SELECT ")
        sql.append(.joined(inner, separator: ", "))
        sql.append(try from(request.entity, condition: request.condition))
        sql.append(sql: ") AS ")
        sql.append(.identifier("strata_rows"))
        if !request.keys.isEmpty {
            sql.append(sql: " GROUP BY ")
            sql.append(.joined(request.keys.indices.map { .identifier(StoreAggregate.keyColumn($0)) }, separator: ", "))
        }
        if let groupCondition = request.groupCondition {
            // The groups' HAVING, spelled over the result's column names, which PostgreSQL's HAVING can't name:
            // the grouped select becomes a derived table filtered by them.
            sql =
                SQLFragment(sql: "SELECT * FROM (") + sql + SQLFragment(sql: ") AS ")
                + .identifier("strata_groups") + SQLFragment(sql: " WHERE ") + (try writer.condition(groupCondition))
        }
        if !request.ordering.isEmpty {
            sql.append(sql: " ORDER BY ")
            sql.append(
                .joined(try request.ordering.map { try writer.orderingKey($0, of: request.entity) }, separator: ", "))
        }
        if request.limit != nil || request.offset != nil {
            writer.appendLimit(request.limit, offset: request.offset, to: &sql)
        }
        return sql
    }

    private func aggregateColumn(_ column: StoreAggregate.Column) throws -> SQLFragment {
        switch column {
        case .count(nil):
            return SQLFragment(sql: "count(*)")
        case .count(let operand?):
            return SQLFragment(sql: "count(") + (try writer.value(operand)) + SQLFragment(sql: ")")
        case .countDistinct(let operand):
            return SQLFragment(sql: "count(DISTINCT ") + (try writer.value(operand)) + SQLFragment(sql: ")")
        case .aggregate(let aggregate, let operand):
            return try writer.aggregate(aggregate, of: operand)
        case .integerSumKey(let high, let low):
            return try exactSum(high, low)
        case .integerAverageKey(let high, let low, let operand):
            return SQLFragment(sql: "(") + (try exactSum(high, low)) + SQLFragment(sql: " * 1.0 / NULLIF(count(")
                + (try writer.value(operand)) + SQLFragment(sql: "), 0))")
        }
    }

    /// `sum(high) * 2^32 + sum(low)`, 0 over no values: SQLite's integer arithmetic turns real past `Int64`
    /// instead of failing, PostgreSQL's `numeric` stays exact.
    private func exactSum(_ high: QueryExpression, _ low: QueryExpression) throws -> SQLFragment {
        SQLFragment(sql: "(coalesce(") + (try writer.aggregate(.sum, of: high))
            + SQLFragment(sql: ", 0) * 4294967296 + coalesce(") + (try writer.aggregate(.sum, of: low))
            + SQLFragment(sql: ", 0))")
    }
}
