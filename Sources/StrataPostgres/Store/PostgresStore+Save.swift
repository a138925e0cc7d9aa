import Foundation
import Strata

extension PostgresStore {
    /// How many times a save runs when it loses a serialization race or a deadlock (SQLSTATE `40001`/`40P01`).
    static let saveAttempts = 3

    /// Writes `changes` in one transaction, in ``SaveSequence``'s order (each write of a stored row checked against
    /// the version the model read, in the statement that writes), its statements pipelined
    /// (``PostgresSaveExecutor``), the history derived from the save's journal. A transaction that loses a serialization
    /// race or a deadlock (after a pause of 5–20 ms times the attempts so far), or meets a prepared statement another
    /// instance's migration made stale, is run again, at most three times.
    ///
    /// - Throws: `StrataError.readOnlyContainer`, `StrataError.uniqueConstraintViolation`,
    ///   `StrataError.mergeConflict` (under `.error`), or `StrataError.storeFailure`; nothing is written when it throws.
    package func save(
        _ changes: StoreChanges, mergePolicy: MergePolicy, beforeCommit: () throws -> Void
    ) throws -> StoreSaveResult {
        guard !isReadOnly else { throw StrataError.readOnlyContainer(operation: "save") }
        return try withConnection("save", isRead: false) { connection in
            let result = try save(changes, mergePolicy: mergePolicy, beforeCommit: beforeCommit, on: connection)
            // Read-your-writes: reads wait for a replica to replay this commit (or go to the primary). The save has
            // committed, so failing to read the position must not fail it: reads go to the primary until it is known.
            readReplicas?.requireCurrentPosition(of: connection)
            return result
        }
    }

    /// Runs the save's transaction on `connection`, again after a lost serialization race (see
    /// ``save(_:mergePolicy:beforeCommit:)``) unless `beforeCommit` already ran: what it did can't be done twice.
    private func save(
        _ changes: StoreChanges, mergePolicy: MergePolicy, beforeCommit: () throws -> Void,
        on connection: PostgresConnection
    ) throws -> StoreSaveResult {
        var attempt = 1
        var ranBeforeCommit = false
        while true {
            do {
                // The history's transaction row goes with BEGIN, its changes and the NOTIFY with COMMIT: a save
                // of a few rows waits for the server three times.
                return try connection.transaction(
                    beginningWith: PostgresHistoryRecorder.transactionRow(author: changes.author)
                ) { row in
                    let executor = PostgresSaveExecutor(connection: connection, select: PostgresSelect(writer: writer))
                    var sequence = SaveSequence(
                        executor: executor, mergePolicy: mergePolicy, storeIdentifier: identifier,
                        recordsHistory: true, statementCache: saveStatements)
                    let result = try sequence.write(changes)
                    // The history is recorded in the save's transaction, so it commits or rolls back with the data.
                    let history = PostgresHistoryRecorder(inserted: row)
                    if configuration.historyRetention.isDue(after: history.transaction) { try pruneHistory(connection) }
                    try beforeCommit()
                    ranBeforeCommit = true
                    let last =
                        history.statements(recording: sequence.journal)
                        + [commitAnnouncement(of: history.transaction)].compactMap { $0 }
                    return (result, last)
                }
            } catch let error as PostgresError where (error.isRetryable || error.isStalePlan) && !ranBeforeCommit {
                // A stale prepared statement (a migration elsewhere changed its result type) aborted the
                // transaction; the connection has forgotten it, so running the save again prepares it afresh.
                guard attempt < Self.saveAttempts else {
                    throw StrataError.storeFailure(
                        operation: "save",
                        reason:
                            "\(error.description); the save lost to concurrent transactions \(attempt) times in a row and was "
                            + "rolled back each time, so nothing of it was written; save again")
                }
                // A short, growing, random pause lets the transaction that won take the rows first: a save run
                // again at once could take them ahead of it and deadlock it again.
                StrataLog.log(
                    .debug, "running a save again after a failed attempt",
                    metadata: [
                        "attempt": "\(attempt + 1)", "reason": error.description,
                    ], category: "postgres")
                if error.isRetryable {
                    Thread.sleep(forTimeInterval: Double.random(in: 0.005...0.02) * Double(attempt))
                }
                attempt += 1
            }
        }
    }
}
