import CLibPQ
import Strata

extension PostgresStore {
    /// Runs `body` with a select that answers a query's text `leaves` (see ``PostgresTextLeaves``). When the query
    /// has any, the pre-pass computing their answers and `body` run in one read-only `REPEATABLE
    /// READ` transaction, so the query reads exactly the values the answers were computed for.
    ///
    /// - Throws: what the pre-pass (``PostgresTextLookups/init(_:writer:query:)``) or `body` throws.
    func withTextLookups<T>(
        _ leaves: PostgresTextLeaves, on connection: PostgresConnection, _ body: (PostgresSelect) throws -> T
    ) throws -> T {
        let select = PostgresSelect(writer: writer)
        guard !leaves.isEmpty else { return try body(select) }
        do {
            return try connection.inSnapshot { try body(select.answering(leaves, on: connection)) }
        } catch let error as PostgresError where error.isStalePlan {
            // Another instance's migration changed a prepared statement's result type, which aborted the snapshot;
            // the statement is forgotten, so running once more prepares it afresh (as outside a transaction).
            return try connection.inSnapshot { try body(select.answering(leaves, on: connection)) }
        }
    }
}

extension PostgresStore {
    /// Runs `body` with the statement of `request` for `purpose`, rendered by a select answering the text `leaves`
    /// (see ``withTextLookups(_:on:_:)``). A statement with no text lookups is kept for the next run of the same
    /// fetch (``fetchStatements``); one answering them holds this snapshot's answers, so it is rendered each time.
    ///
    /// - Throws: what rendering, the pre-pass or `body` throws.
    func withStatement<T>(
        for request: StoreFetch, _ purpose: FetchStatementCache.Purpose, leaves: PostgresTextLeaves,
        on connection: PostgresConnection, _ body: (String, [StoredValue]) throws -> T
    ) throws -> T {
        try withTextLookups(leaves, on: connection) { select in
            let render = { (request: StoreFetch) throws -> FetchStatementCache.Rendered in
                let statement = purpose == .count ? try select.count(request) : try select.rows(request)
                return statement.render(in: self.writer.dialect)
            }
            let (sql, bindings) =
                try leaves.isEmpty
                ? fetchStatements.statement(for: request, purpose: purpose, render: render) : render(request)
            return try body(sql, bindings)
        }
    }
}

extension PostgresSelect {
    /// This select answering the text leaves of a query on `entity` with `condition` and `orderings`, computed
    /// on `connection` (in its current transaction).
    ///
    /// - Throws: what ``PostgresTextLookups/init(_:writer:query:)`` throws.
    func answering(
        _ entity: Schema.Entity, condition: QueryExpression?, orderings: [QueryOrdering] = [],
        on connection: PostgresConnection
    ) throws -> PostgresSelect {
        try answering(PostgresTextLeaves(condition: condition, orderings: orderings, entity: entity), on: connection)
    }

    func answering(_ leaves: PostgresTextLeaves, on connection: PostgresConnection) throws -> PostgresSelect {
        guard !leaves.isEmpty else { return self }
        var answering = writer
        answering.lookups = try PostgresTextLookups(leaves, writer: writer) { prePass in
            try connection.preparedQuery(prePass)
        }
        return PostgresSelect(writer: answering)
    }
}

extension PostgresConnection {
    /// Runs `body` in a read-only `REPEATABLE READ` transaction, so its statements share one snapshot; inside an
    /// open transaction (a migration's), in that one.
    ///
    /// - Throws: what `body` throws, or ``PostgresError`` when beginning or committing fails.
    func inSnapshot<T>(_ body: () throws -> T) throws -> T {
        guard !isInTransaction, PQtransactionStatus(handle) == PQTRANS_IDLE else { return try body() }
        return try transaction {
            try execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            return try body()
        }
    }
}
