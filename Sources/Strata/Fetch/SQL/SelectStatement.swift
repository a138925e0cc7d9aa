/// Builds the SQL of a fetch: `SELECT … FROM … WHERE … ORDER BY … LIMIT … OFFSET …`.
package enum SelectStatement {
    /// The SQL that reads the rows of `fetch`: the primary key, the requested columns, and — when any column is
    /// requested — the row's version last (see ``StoreRow/version(afterColumns:)``).
    package static func rows(_ fetch: StoreFetch, dialect: some SQLDialect) -> SQLFragment {
        var columns: [SQLFragment] = [.identifier(StoreLayout.primaryKeyColumn)]
        for index in fetch.columns ?? [] {
            columns.append(.identifier(fetch.entity.persistentProperties[index].name))
        }
        if fetch.columns != nil { columns.append(.identifier(StoreLayout.versionColumn)) }
        if fetch.readsEntityColumn { columns.append(.identifier(StoreLayout.entityColumn)) }
        var sql = SQLFragment(sql: "SELECT ") + .joined(columns, separator: ", ")
        sql.append(from(fetch))
        if !fetch.ordering.isEmpty {
            let keys = fetch.ordering.map { ordering in
                var key = ordering.expression.sql
                if let collation = dialect.collationName(for: ordering.collation) {
                    key.append(sql: " COLLATE \(collation)")
                }
                key.append(sql: ordering.ascending ? " ASC" : " DESC")
                return key
            }
            sql.append(sql: " ORDER BY ")
            sql.append(.joined(keys, separator: ", "))
        }
        if fetch.limit != nil || fetch.offset != nil {
            sql.append(sql: " LIMIT ")
            sql.append(.binding(.integer(Int64(fetch.limit ?? -1))))
            sql.append(sql: " OFFSET ")
            sql.append(.binding(.integer(Int64(fetch.offset ?? 0))))
        }
        return sql
    }

    /// The SQL that counts the rows of `fetch` (honouring its limit and offset).
    package static func count(_ fetch: StoreFetch, dialect: some SQLDialect) -> SQLFragment {
        if fetch.limit == nil && fetch.offset == nil {
            return SQLFragment(sql: "SELECT count(*)") + from(fetch)
        }
        var inner = fetch
        inner.columns = nil
        inner.ordering = []
        return SQLFragment(sql: "SELECT count(*) FROM (") + rows(inner, dialect: dialect) + SQLFragment(sql: ")")
    }

    private static func from(_ fetch: StoreFetch) -> SQLFragment {
        var sql = SQLFragment(sql: " FROM ") + .identifier(fetch.entity.tableName)
        var conditions: [SQLFragment] = []
        if let condition = fetch.entity.restricting(fetch.condition) { conditions.append(condition.sql) }
        if let filter = fetch.keyFilter {
            let list = SQLFragment.joined(filter.keys.map { .binding(.integer($0)) }, separator: ", ")
            conditions.append(.identifier(filter.column) + SQLFragment(sql: " IN (") + list + SQLFragment(sql: ")"))
        }
        if !conditions.isEmpty {
            sql.append(sql: " WHERE ")
            sql.append(.joined(conditions, separator: " AND "))
        }
        return sql
    }
}
