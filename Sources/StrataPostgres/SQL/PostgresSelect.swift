import Strata

/// The SQL of a fetch on PostgreSQL: `SELECT … FROM … WHERE … ORDER BY … LIMIT … OFFSET …`, every sort ending on
/// the primary key, so rows that tie come back in the order SQLite returns them (PostgreSQL's heap order changes
/// as rows are updated).
struct PostgresSelect {
    let writer: PostgresQueryWriter

    /// The primary key, the requested columns and, when any is requested, the row's version last.
    func rows(_ fetch: StoreFetch) throws -> SQLFragment {
        // Built by appending to one fragment: a fetch runs this for every query, so no intermediate fragments.
        var list: [SQLFragment.Segment] = [.text("SELECT "), .identifier(StoreLayout.primaryKeyColumn)]
        if let columns = fetch.columns {
            list.reserveCapacity(2 * columns.count + 4)
            for index in columns {
                list.append(.text(", "))
                list.append(.identifier(fetch.entity.persistentProperties[index].name))
            }
            list.append(.text(", "))
            list.append(.identifier(StoreLayout.versionColumn))
        }
        if fetch.readsEntityColumn {
            list.append(.text(", "))
            list.append(.identifier(StoreLayout.entityColumn))
        }
        var sql = SQLFragment(list)
        sql.append(try from(fetch))
        sql.append(sql: " ORDER BY ")
        for (offset, ordering) in fetch.ordering.enumerated() {
            if offset > 0 { sql.append(sql: ", ") }
            sql.append(
                try writer.orderingKey(ordering, nullable: Self.isNullable(ordering.expression, in: fetch.entity)))
        }
        let endsOnKey =
            fetch.ordering.last.map { $0.expression == .column(StoreLayout.primaryKeyColumn) && $0.ascending } ?? false
        if !endsOnKey {
            if !fetch.ordering.isEmpty { sql.append(sql: ", ") }
            sql.append(.identifier(StoreLayout.primaryKeyColumn))
        }
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
        if name == StoreLayout.primaryKeyColumn { return false }
        return entity.persistentProperties.first { $0.name == name }?.isOptional ?? true
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

    func from(
        _ entity: Schema.Entity, condition: QueryExpression?, keyFilter: (column: String, keys: [Int64])? = nil
    ) throws -> SQLFragment {
        var sql = SQLFragment([.text(" FROM "), .identifier(entity.tableName)])
        if let condition = entity.restricting(condition) {
            sql.append(sql: " WHERE ")
            sql.append(try writer.condition(condition))
        }
        if let filter = keyFilter {
            sql.append(sql: entity.restricting(condition) == nil ? " WHERE " : " AND ")
            if filter.keys.isEmpty {
                sql.append(sql: "FALSE")
            } else {
                let list = SQLFragment.joined(filter.keys.map { .binding(.integer($0)) }, separator: ", ")
                sql.append(.identifier(filter.column) + SQLFragment(sql: " IN (") + list + SQLFragment(sql: ")"))
            }
        }
        return sql
    }
}
