/// SQLite's rendering of fetches for ``SelectStatement``: conditions and sort keys as `QueryExpression+SQL`
/// writes them, with Strata's collations.
package struct SQLiteSelectWriter: SelectWriter {
    package let dialect: SQLiteDialect

    /// A writer for SQLite's dialect.
    package init(dialect: SQLiteDialect = SQLiteDialect()) {
        self.dialect = dialect
    }

    package func condition(_ expression: QueryExpression) -> SQLFragment {
        expression.sql
    }

    package func value(_ expression: QueryExpression) -> SQLFragment {
        expression.sql
    }

    package func aggregate(_ aggregate: QueryAggregate, of operand: QueryExpression) -> SQLFragment {
        aggregate.sql(of: operand.sql)
    }

    /// `NOT strata_key_listed(?, "Z_PK")`, the keys sorted in one blob: tested on the index entry the statement
    /// steps, so an excluded row is not read from the table.
    package func primaryKeyExclusion(_ keys: SortedKeys) -> SQLFragment? {
        SQLFragment([
            .text("NOT \(SQLiteFunctions.keyListed)("), .binding(.blob(SQLiteFunctions.keyList(keys.sorted))),
            .text(", "), .identifier(StoreLayout.primaryKeyColumn), .text(")"),
        ])
    }

    /// ` LIMIT ? OFFSET ?`, with `-1` for no limit.
    package func appendLimit(_ limit: Int?, offset: Int?, to sql: inout SQLFragment) {
        sql.append(sql: " LIMIT ")
        sql.append(.binding(.integer(Int64(limit ?? -1))))
        sql.append(sql: " OFFSET ")
        sql.append(.binding(.integer(Int64(offset ?? 0))))
    }

    package func orderingKey(_ ordering: QueryOrdering, of entity: Schema.Entity) -> SQLFragment {
        var key = ordering.expression.sql
        // Byte order is SQLite's default: a sort by it names no collation, so the column's own applies.
        if ordering.collation != .binary, let collation = dialect.collationName(for: ordering.collation) {
            key.append(sql: " COLLATE \(collation)")
        }
        key.append(sql: ordering.ascending ? " ASC" : " DESC")
        return key
    }
}

extension SelectStatement where Writer == SQLiteSelectWriter {
    /// A builder for SQLite.
    package static var sqlite: SelectStatement { SelectStatement(writer: SQLiteSelectWriter()) }
}
