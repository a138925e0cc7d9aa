import Strata

/// The SQL of a fetch on PostgreSQL: `SELECT … FROM … WHERE … ORDER BY … LIMIT … OFFSET …`, every sort ending on
/// the primary key, so rows that tie come back in the order SQLite returns them (PostgreSQL's heap order changes
/// as rows are updated).
struct PostgresSelect {
    let writer: PostgresQueryWriter

    /// The primary key, the requested columns and, when any is requested, the row's version last.
    func rows(_ fetch: StoreFetch) throws -> SQLFragment {
        var columns: [SQLFragment] = [.identifier(SelectStatement.primaryKeyColumn)]
        for index in fetch.columns ?? [] { columns.append(.identifier(fetch.entity.properties[index].name)) }
        if fetch.columns != nil { columns.append(.identifier(SelectStatement.versionColumn)) }
        var sql = SQLFragment(sql: "SELECT ") + .joined(columns, separator: ", ") + (try from(fetch))
        let keys = try fetch.ordering.map { try writer.orderingKey($0, nullable: Self.isNullable($0.expression, in: fetch.entity)) }
        let endsOnKey = fetch.ordering.last.map { $0.expression == .column(SelectStatement.primaryKeyColumn) && $0.ascending } ?? false
        sql.append(sql: " ORDER BY ")
        sql.append(.joined(endsOnKey ? keys : keys + [.identifier(SelectStatement.primaryKeyColumn)], separator: ", "))
        if let limit = fetch.limit {
            sql.append(sql: " LIMIT ")
            sql.append(.binding(.integer(Int64(limit))))
        }
        if let offset = fetch.offset {
            sql.append(sql: " OFFSET ")
            sql.append(.binding(.integer(Int64(offset))))
        }
        return sql
    }

    /// Whether a sort key may be NULL: anything but the primary key or a column of a non-optional property.
    static func isNullable(_ expression: QueryExpression, in entity: Schema.Entity) -> Bool {
        guard case .column(let name) = expression else { return true }
        if name == SelectStatement.primaryKeyColumn { return false }
        return entity.properties.first { $0.name == name }?.isOptional ?? true
    }

    /// Counts the rows of `fetch`, honouring its limit and offset.
    func count(_ fetch: StoreFetch) throws -> SQLFragment {
        if fetch.limit == nil && fetch.offset == nil {
            return SQLFragment(sql: "SELECT count(*)") + (try from(fetch))
        }
        var inner = fetch
        inner.columns = nil
        inner.ordering = []
        return SQLFragment(sql: "SELECT count(*) FROM (") + (try rows(inner)) + SQLFragment(sql: ") AS counted")
    }

    /// ` FROM "Entity" WHERE …` (also the matching part of a batch delete).
    func from(_ fetch: StoreFetch) throws -> SQLFragment {
        try from(fetch.entity, condition: fetch.condition, keyFilter: fetch.keyFilter)
    }

    func from(_ entity: Schema.Entity, condition: QueryExpression?, keyFilter: (column: String, keys: [Int64])? = nil) throws -> SQLFragment {
        var sql = SQLFragment(sql: " FROM ") + .identifier(entity.name)
        var conditions: [SQLFragment] = []
        if let condition { conditions.append(try writer.condition(condition)) }
        if let filter = keyFilter {
            let list = SQLFragment.joined(filter.keys.map { .binding(.integer($0)) }, separator: ", ")
            conditions.append(filter.keys.isEmpty ? SQLFragment(sql: "FALSE")
                : .identifier(filter.column) + SQLFragment(sql: " IN (") + list + SQLFragment(sql: ")"))
        }
        if !conditions.isEmpty {
            sql.append(sql: " WHERE ")
            sql.append(.joined(conditions, separator: " AND "))
        }
        return sql
    }
}
