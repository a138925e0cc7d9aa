/// Builds the SQL of a fetch, `SELECT … FROM … WHERE … ORDER BY … LIMIT … OFFSET …`, for every store: the
/// statement's shape is here, and the store's ``SelectWriter`` renders conditions, sort keys and limits in its
/// dialect.
package struct SelectStatement<Writer: SelectWriter> {
    /// The dialect's renderer.
    package let writer: Writer

    /// A builder rendering through `writer`.
    package init(writer: Writer) {
        self.writer = writer
    }

    /// The SQL that reads the rows of `fetch`: the primary key, the requested columns, and — when any column is
    /// requested — the row's version after them (see ``StoreRow/version(afterColumns:)``), then the entity column
    /// when the fetch reads one.
    /// - Throws: what the writer throws for the condition or a sort key.
    package func rows(_ fetch: StoreFetch) throws -> SQLFragment {
        // Built by appending to one fragment: every fetch runs this, so no intermediate fragments.
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
        let exclusion = fetch.excludedKeys.isEmpty ? nil : writer.primaryKeyExclusion(fetch.excludedKeys)
        sql.append(
            try from(
                fetch.entity, condition: fetch.condition, startAfterKey: fetch.startAfterKey,
                keyFilter: fetch.keyFilter, exclusion: exclusion))
        let endsOnKey =
            fetch.ordering.last.map { $0.expression == .column(StoreLayout.primaryKeyColumn) && $0.ascending } ?? false
        let addsKey = writer.breaksTiesByPrimaryKey && !endsOnKey
        if !fetch.ordering.isEmpty || addsKey { sql.append(sql: " ORDER BY ") }
        for (offset, ordering) in fetch.ordering.enumerated() {
            if offset > 0 { sql.append(sql: ", ") }
            sql.append(try writer.orderingKey(ordering, of: fetch.entity))
        }
        if addsKey {
            if !fetch.ordering.isEmpty { sql.append(sql: ", ") }
            sql.append(.identifier(StoreLayout.primaryKeyColumn))
        }
        // Keys the statement doesn't leave out are left out as the rows are read: it reads as many more rows.
        let (limit, offset) = exclusion == nil ? (fetch.rowsToRead, fetch.statementOffset) : (fetch.limit, fetch.offset)
        if limit != nil || offset != nil { writer.appendLimit(limit, offset: offset, to: &sql) }
        return sql
    }

    /// The SQL that counts the rows of `fetch`, honouring its limit and offset; it has no excluded keys.
    /// - Throws: what the writer throws for the condition.
    package func count(_ fetch: StoreFetch) throws -> SQLFragment {
        if fetch.limit == nil && fetch.offset == nil {
            return SQLFragment(sql: "SELECT count(*)") + (try from(fetch))
        }
        var inner = fetch
        inner.columns = nil
        inner.ordering = []
        return SQLFragment(sql: "SELECT count(*) FROM (") + (try rows(inner)) + SQLFragment(sql: ") AS counted")
    }

    /// ` FROM "Entity" WHERE …` of `fetch`.
    /// - Throws: what the writer throws for the condition.
    package func from(_ fetch: StoreFetch) throws -> SQLFragment {
        try from(
            fetch.entity, condition: fetch.condition, startAfterKey: fetch.startAfterKey, keyFilter: fetch.keyFilter)
    }

    /// ` FROM "Entity" WHERE …`: the rows of `entity`'s table whose primary key is greater than `startAfterKey`,
    /// that are `entity`'s (a hierarchy shares one table), match `condition`, have one of `keyFilter`'s keys in its
    /// column, and meet `exclusion` (the writer's ``SelectWriter/primaryKeyExclusion(_:)``). Also the matching part
    /// of a batch delete.
    /// - Throws: what the writer throws for the condition.
    package func from(
        _ entity: Schema.Entity, condition: QueryExpression?, startAfterKey: Int64? = nil,
        keyFilter: (column: String, keys: [Int64])? = nil, exclusion: SQLFragment? = nil
    ) throws -> SQLFragment {
        var sql = SQLFragment([.text(" FROM "), .identifier(entity.tableName)])
        var hasWhere = false
        // First, so its value is the statement's first binding (``StoreFetch/startAfterKeyBinding``).
        if let startAfterKey {
            sql.append(sql: " WHERE ")
            sql.append(.identifier(StoreLayout.primaryKeyColumn))
            sql.append(sql: " > ")
            sql.append(binding: .integer(startAfterKey))
            hasWhere = true
        }
        if let restricted = entity.restricting(condition) {
            sql.append(sql: hasWhere ? " AND " : " WHERE ")
            sql.append(try writer.condition(restricted))
            hasWhere = true
        }
        if let exclusion {
            sql.append(sql: hasWhere ? " AND " : " WHERE ")
            sql.append(exclusion)
            hasWhere = true
        }
        if let filter = keyFilter {
            sql.append(sql: hasWhere ? " AND " : " WHERE ")
            if filter.keys.isEmpty {
                sql.append(sql: "FALSE")
            } else if let run = filter.keys.consecutiveRun {
                // The same rows as the `IN` list, found by one seek and a scan instead of a seek each (and an
                // ephemeral index of the list), in a statement whose text doesn't grow with the keys: a batch of a
                // list in key order, the faults its rows refer to, the owners of a to-many read across a list.
                sql.append(.identifier(filter.column))
                sql.append(sql: " BETWEEN ")
                sql.append(binding: .integer(run.lowerBound))
                sql.append(sql: " AND ")
                sql.append(binding: .integer(run.upperBound))
            } else {
                sql.append(.identifier(filter.column))
                sql.append(sql: " IN (")
                for (offset, key) in filter.keys.enumerated() {
                    if offset > 0 { sql.append(sql: ", ") }
                    sql.append(binding: .integer(key))
                }
                sql.append(sql: ")")
            }
        }
        return sql
    }
}

extension [Int64] {
    /// The keys as a range, when there are two or more and each is the one before it plus one; `nil` otherwise. A key
    /// filter of such keys is read as the range (see
    /// `SelectStatement.from(_:condition:startAfterKey:keyFilter:exclusion:)`).
    package var consecutiveRun: ClosedRange<Int64>? {
        guard count > 1 else { return nil }
        // Each key compared with the first plus its offset, through the buffer: a batch of a list is thousands of
        // keys, checked before its statement is written and again as it is written.
        return withUnsafeBufferPointer { keys in
            let first = keys[0]
            let (last, overflow) = first.addingReportingOverflow(Int64(keys.count - 1))
            guard !overflow, keys[keys.count - 1] == last else { return nil }
            for offset in 1..<keys.count where keys[offset] != first &+ Int64(offset) { return nil }
            return first...last
        }
    }
}
