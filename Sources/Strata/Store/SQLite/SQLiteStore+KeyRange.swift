extension SQLiteStore {
    /// The keys of a fetch of every row of its entity's table in key order, when they are one unbroken run (a
    /// table nothing was deleted from, or an empty one): `nil` when the fetch selects fewer rows, in another order,
    /// or when the keys have gaps, which only reading them tells.
    ///
    /// SQLite counts a table's rows a page at a time and finds its least and greatest keys by one seek each, so one
    /// statement tells whether the keys are every integer between those two, for a few instructions a row where
    /// reading the keys themselves costs a step each: what a batched fetch reads first of a table read whole.
    package func unbrokenKeyRun(_ request: StoreFetch) throws -> [Int64]? {
        guard Self.selectsWholeTableInKeyOrder(request) else { return nil }
        let table = request.entity.tableName
        let key = StoreLayout.primaryKeyColumn
        let counted: SQLFragment = "(SELECT count(*) FROM \(identifier: table))"
        let least: SQLFragment = "(SELECT min(\(identifier: key)) FROM \(identifier: table))"
        let greatest: SQLFragment = "(SELECT max(\(identifier: key)) FROM \(identifier: table))"
        let sql = ("SELECT \(counted), \(least), \(greatest)" as SQLFragment).render(in: dialect).sql
        let operation = "fetch \(request.entity.name)"
        // `nil`: an empty table, whose least key is `NULL`.
        let bounds: (count: Int64, first: Int64, last: Int64)? = try withConnection { connection in
            try detectingMigration(connection) {
                let statement = try translatingErrors(operation) { try connection.prepare(sql) }
                defer { statement.reset() }
                guard try translatingErrors(operation, { try statement.step() }), !statement.isNull(at: 1) else {
                    return nil
                }
                return (statement.int64(at: 0), statement.int64(at: 1), statement.int64(at: 2))
            }
        }
        guard let (count, first, last) = bounds else { return [] }
        let (span, overflow) = last.subtractingReportingOverflow(first)
        guard !overflow, span < Int64.max, span + 1 == count else { return nil }
        return Array(first...last)
    }

    /// Whether a fetch selects every row of its entity's table, ordered by key alone: no condition (and no other
    /// entity's rows in the table), no start key, no filtered or excluded keys, no limit or offset.
    private static func selectsWholeTableInKeyOrder(_ request: StoreFetch) -> Bool {
        guard request.entity.restricting(request.condition) == nil, request.startAfterKey == nil,
            request.keyFilter == nil,
            request.excludedKeys.isEmpty, request.limit == nil, request.offset == nil, request.ordering.count == 1
        else { return false }
        let ordering = request.ordering[0]
        return ordering.expression == .column(StoreLayout.primaryKeyColumn) && ordering.ascending
    }
}
