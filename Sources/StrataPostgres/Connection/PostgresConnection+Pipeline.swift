import CLibPQ
import Strata

extension PostgresConnection {
    /// One statement of ``pipeline(_:statement:result:)``: its SQL and parameters, bound as ``query(_:_:)`` binds them.
    package struct PipelinedStatement {
        package var sql: String
        package var parameters: [StoredValue]
        /// Whether it is prepared once on the connection (``preparedQuery(_:_:)``) or sent unnamed each time
        /// (``query(_:_:)``: for SQL that seldom repeats, such as a multi-row `INSERT` of any length).
        package var isPrepared: Bool

        package init(_ sql: String, _ parameters: [StoredValue], isPrepared: Bool = true) {
            self.sql = sql
            self.parameters = parameters
            self.isPrepared = isPrepared
        }

        /// A statement written as an ``SQLFragment``.
        package init(_ statement: SQLFragment, isPrepared: Bool = true) {
            let (sql, parameters) = statement.render(in: PostgreSQLDialect())
            self.init(sql, parameters, isPrepared: isPrepared)
        }
    }

    /// The statements sent before their results are read: enough to save the round trips, few enough that a batch
    /// of results stays small in memory.
    static let pipelineBatch = 1000

    /// Runs `count` statements, as ``preparedQuery(_:_:)`` runs each (prepared once on this connection), in libpq's
    /// pipeline mode: a batch of statements is sent, then a sync, and only then are their results read, so a save
    /// of many rows waits for the server once per ``pipelineBatch`` statements instead of once per row. The server
    /// runs them one after another, in order, as if sent one by one; the first failure skips the rest of its batch
    /// and stops the run. Inside a transaction, a failure has failed the transaction, as it would one by one;
    /// outside one, PostgreSQL runs the statements up to a sync as one implicit transaction, so a batch commits or
    /// fails whole.
    ///
    /// - Parameters:
    ///   - statement: the statement at an index, asked for in order.
    ///   - result: called in order with each statement's result, once its batch has run.
    /// - Throws: the first statement's ``PostgresError`` (statements after it in its batch did not run; none
    ///   after its batch is sent), or what `result` throws.
    package func pipeline(
        _ count: Int, statement: (Int) -> PipelinedStatement, result: (Int, PostgresResult) throws -> Void
    ) throws {
        guard reusesStatements, count > 1 else {
            for index in 0..<count {
                let next = statement(index)
                try result(
                    index,
                    next.isPrepared
                        ? try preparedQuery(next.sql, next.parameters) : try query(next.sql, next.parameters))
            }
            return
        }
        for start in stride(from: 0, to: count, by: Self.pipelineBatch) {
            let end = min(start + Self.pipelineBatch, count)
            let results = try runPipelined(start..<end, statement: statement)
            for (offset, value) in results.enumerated() { try result(start + offset, value) }
        }
    }

    /// One message sent in a pipeline: a statement prepared there, or one run.
    private enum PipelineStep {
        case prepare(PostgresPreparedStatements.Key, name: String)
        /// A statement run: prepared under its key, or unnamed (`nil`).
        case run(PostgresPreparedStatements.Key?)
    }

    /// Sends `indexes`' statements and a sync, then reads every result.
    private func runPipelined(_ indexes: Range<Int>, statement: (Int) -> PipelinedStatement) throws -> [PostgresResult]
    {
        guard PQenterPipelineMode(handle) == 1 else { throw connectionError }
        var steps: [PipelineStep] = []
        steps.reserveCapacity(indexes.count)
        var sendFailure: (any Error)?
        for index in indexes {
            let next = statement(index)
            do {
                try withBindings(next.parameters) { bindings in
                    guard next.isPrepared else {
                        guard
                            PQsendQueryParams(
                                handle, next.sql, bindings.count, bindings.types, bindings.values, bindings.lengths,
                                bindings.formats, 0) == 1
                        else { throw connectionError }
                        steps.append(.run(nil))
                        return
                    }
                    let key = PostgresPreparedStatements.Key(sql: next.sql, types: bindings.types)
                    let name: String
                    if let prepared = preparedStatements.name(for: key) {
                        name = prepared
                    } else {
                        name = preparedStatements.newName()
                        guard PQsendPrepare(handle, name, key.sql, bindings.count, key.types) == 1 else {
                            throw connectionError
                        }
                        steps.append(.prepare(key, name: name))
                        // Deallocated once the pipeline is done: a statement sent in it may be the one evicted.
                        preparedStatements.noteForgotten(preparedStatements.insert(key, name: name))
                    }
                    guard
                        PQsendQueryPrepared(
                            handle, name, bindings.count, bindings.values, bindings.lengths, bindings.formats, 0) == 1
                    else {
                        throw connectionError
                    }
                    steps.append(.run(key))
                }
            } catch {
                sendFailure = error
                break
            }
        }
        let (results, failure) = readPipeline(steps)
        if PQtransactionStatus(handle) == PQTRANS_IDLE { deallocateForgotten() }
        if let failure = sendFailure ?? failure { throw failure }
        return results
    }

    /// Syncs the pipeline, reads the results of `steps` and leaves pipeline mode. Statements whose preparing failed
    /// or was skipped are dropped, and a statement whose plan went stale is forgotten (deallocated later).
    /// - Returns: the results of the `.run` steps before the first failure, and that failure.
    private func readPipeline(_ steps: [PipelineStep]) -> ([PostgresResult], PostgresError?) {
        var results: [PostgresResult] = []
        results.reserveCapacity(steps.count)
        var failure: PostgresError?
        if PQpipelineSync(handle) != 1 { failure = connectionError }
        for step in steps {
            var first: OpaquePointer?
            while let next = PQgetResult(handle) {
                if first == nil { first = next } else { PQclear(next) }
            }
            let status = first.map(PQresultStatus)
            let succeeded = status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK
            if case .run = step, succeeded, let first, failure == nil {
                results.append(PostgresResult(handle: first))
                continue
            }
            // A failed step's own error; a skipped one (after a failure) reports `PGRES_PIPELINE_ABORTED`.
            var error: PostgresError?
            if let first {
                if !succeeded, status != PGRES_PIPELINE_ABORTED { error = PostgresError(result: first) }
                PQclear(first)
            } else {
                error = connectionError
            }
            switch step {
            // Never prepared: a DEALLOCATE of its name would fail (inside a transaction, failing the transaction).
            case .prepare(let key, let name) where !succeeded: preparedStatements.discard(key, name: name)
            case .run(let key?) where error?.isStalePlan == true: preparedStatements.forget(key)
            default: break
            }
            if failure == nil { failure = error }
        }
        // The sync's own result, then the pipeline is empty and may end.
        while let next = PQgetResult(handle) {
            let status = PQresultStatus(next)
            PQclear(next)
            if status == PGRES_PIPELINE_SYNC { break }
        }
        if PQexitPipelineMode(handle) != 1, failure == nil { failure = connectionError }
        return (results, failure)
    }

    /// The failure libpq reports for the connection itself (it broke, or refused a message).
    private var connectionError: PostgresError {
        PostgresError(sqlState: nil, message: String(cString: PQerrorMessage(handle)).trimmingTrailingNewlines)
    }
}
