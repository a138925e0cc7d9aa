import CLibPQ
import Strata

extension PostgresConnection {
    /// Runs one statement written as an ``SQLFragment`` as ``preparedQuery(_:_:binaryResults:)`` does.
    /// - Throws: ``PostgresError``.
    @discardableResult
    package func preparedQuery(_ statement: SQLFragment, binaryResults: Bool = false) throws -> PostgresResult {
        let (sql, parameters) = statement.render(in: PostgreSQLDialect())
        return try preparedQuery(sql, parameters, binaryResults: binaryResults)
    }

    /// Runs one statement as ``query(_:_:)`` does, but prepared once on this connection (`PQprepare` under a
    /// generated name) and run by name afterwards, so the server parses and plans it once: for statements Strata
    /// runs again and again (a save's `INSERT`/`UPDATE`/`DELETE`, fetches).
    ///
    /// Outside a transaction, a statement whose result type a migration changed (SQLSTATE `0A000`, "cached plan
    /// must not change result type") is prepared again and run once more. Inside one the failure is thrown, as the
    /// transaction is aborted: the statement is forgotten and deallocated once the transaction has ended, so running
    /// the transaction again prepares it afresh.
    ///
    /// With `binaryResults`, the rows come back in PostgreSQL's binary format, which ``PostgresResult`` decodes
    /// without parsing text (for fetches, whose columns are Strata's own types).
    /// - Throws: ``PostgresError``, as ``query(_:_:)``.
    @discardableResult
    package func preparedQuery(
        _ sql: String, _ parameters: [StoredValue], binaryResults: Bool = false
    ) throws -> PostgresResult {
        let resultFormat: Int32 = binaryResults ? 1 : 0
        guard reusesStatements else { return try query(sql, parameters, resultFormat: resultFormat) }
        return try withBindings(parameters) { bindings in
            let key = PostgresPreparedStatements.Key(sql: sql, types: bindings.types)
            do {
                return try runPrepared(key, bindings, resultFormat: resultFormat)
            } catch let error as PostgresError where error.isStalePlan {
                preparedStatements.forget(key)
                guard PQtransactionStatus(handle) == PQTRANS_IDLE else { throw error }
                deallocateForgotten()
                return try runPrepared(key, bindings, resultFormat: resultFormat)
            }
        }
    }

    /// How many statements this connection has prepared, at most ``preparedStatementLimit``.
    package var preparedStatementCount: Int { preparedStatements.count }

    /// How many statements stay prepared on this connection; past it the least recently used is deallocated.
    package var preparedStatementLimit: Int {
        get { preparedStatements.limit }
        set { preparedStatements.limit = newValue }
    }

    private func runPrepared(
        _ key: PostgresPreparedStatements.Key, _ bindings: PostgresBindings, resultFormat: Int32
    ) throws -> PostgresResult {
        let name: String
        if let prepared = preparedStatements.name(for: key) {
            name = prepared
        } else {
            if PQtransactionStatus(handle) != PQTRANS_INERROR { deallocateForgotten() }
            name = preparedStatements.newName()
            _ = try check(PQprepare(handle, name, key.sql, bindings.count, key.types))
            for evicted in preparedStatements.insert(key, name: name) { deallocate(evicted) }
        }
        return try check(
            PQexecPrepared(
                handle, name, bindings.count, bindings.values, bindings.lengths, bindings.formats, resultFormat))
    }

    /// Deallocates the statements forgotten after failing, once the connection can run a statement again.
    func deallocateForgotten() {
        for name in preparedStatements.takeForgottenNames() { deallocate(name) }
    }

    /// Deallocates one prepared statement. Prepared statements aren't transactional, so this holds even when the
    /// surrounding transaction rolls back; a failure (the connection broke) leaves nothing to clean up.
    private func deallocate(_ name: String) {
        _ = try? execute("DEALLOCATE \(name)")
    }
}
