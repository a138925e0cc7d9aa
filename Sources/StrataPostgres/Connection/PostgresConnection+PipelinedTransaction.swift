import CLibPQ
import Strata

extension PostgresConnection {
    /// Runs `body` in a transaction, as ``transaction(_:)`` does, in two round trips fewer: `first` is sent in one
    /// pipeline with `BEGIN` (its result handed to `body`), and the statements `body` returns last in one with
    /// `COMMIT`. Committed when those succeed, rolled back when anything throws. Inside a transaction (a custom
    /// migration stage's save) it runs in a savepoint instead, the statements one by one.
    ///
    /// - Throws: whatever `body` throws, or the ``PostgresError`` of `BEGIN`, `first`, the last statements or
    ///   `COMMIT`; nothing is committed then.
    package func transaction<T>(
        beginningWith first: PipelinedStatement,
        _ body: (PostgresResult) throws -> (value: T, last: [PipelinedStatement])
    ) throws -> T {
        if isInTransaction {
            return try savepoint {
                let (value, last) = try body(try preparedQuery(first.sql, first.parameters))
                try pipeline(last.count, statement: { last[$0] }, result: { _, _ in })
                return value
            }
        }
        isInTransaction = true
        defer { isInTransaction = false }
        do {
            var firstResult: PostgresResult?
            try pipeline(
                2, statement: { $0 == 0 ? PipelinedStatement("BEGIN", [], isPrepared: false) : first },
                result: { index, result in if index == 1 { firstResult = result } })
            guard let firstResult else {
                throw PostgresError(sqlState: nil, message: "the transaction's first statement returned nothing")
            }
            let (value, last) = try body(firstResult)
            let ending = last + [PipelinedStatement("COMMIT", [], isPrepared: false)]
            try pipeline(ending.count, statement: { ending[$0] }, result: { _, _ in })
            return value
        } catch {
            // A failed COMMIT has ended the transaction already; anything else left it open (or failed).
            if isHealthy, PQtransactionStatus(handle) != PQTRANS_IDLE { try? execute("ROLLBACK") }
            throw error
        }
    }
}
