import Foundation

extension SQLiteStore {
    /// Writes `changes` in one transaction, in ``SaveSequence``'s order, one statement at a time
    /// (``SQLiteSaveExecutor``), then the history derived from the save's journal (``HistoryRecorder``). Under
    /// `.mergeByPropertyObjectTrump` an insert whose unique value exists updates that row instead (an upsert). Each
    /// write of a stored row applies only while the row has the version the model read (in the same statement); a
    /// row saved elsewhere meanwhile is resolved by `mergePolicy`.
    ///
    /// - Throws: `StrataError.readOnlyContainer`, `StrataError.uniqueConstraintViolation`,
    ///   `StrataError.mergeConflict` (under `.error`), `StrataError.storeFailure`, or ``StoreSaveConditionUnmet``;
    ///   nothing is written when it throws.
    package func save(
        _ changes: StoreChanges, mergePolicy: MergePolicy, beforeCommit: () throws -> Void
    ) throws -> StoreSaveResult {
        guard !isReadOnly else { throw StrataError.readOnlyContainer(operation: "save") }
        // A condition that changed no row is the caller's answer, not a store failure: thrown as it is.
        var unmetCondition: StoreSaveConditionUnmet?
        // Whether retention deleted history in this save: its transaction row may then not stay the newest.
        var pruned = false
        return try withConnection { connection in
            // Noted once committed, under the connection's lock: a rolled-back identifier is used again.
            let written: (StoreSaveResult, Int64?)
            do {
                written = try translatingErrors("save") {
                    try connection.transaction {
                        // Nothing committed since this connection's last save, which checked the tables: no one
                        // can have migrated them (a commit moves SQLite's data version).
                        let followsOwnSave = connection.nothingCommittedSinceOwnSave
                        if !followsOwnSave { try checkNotMigratedElsewhere(connection) }
                        try checkFileInPlace(connection)
                        let executor = SQLiteSaveExecutor(connection: connection, dialect: dialect)
                        var sequence = SaveSequence(
                            executor: executor,
                            mergePolicy: mergePolicy,
                            storeIdentifier: identifier, recordsHistory: recordsHistory,
                            statementCache: saveStatements)
                        let result: StoreSaveResult
                        do {
                            result = try sequence.write(changes)
                        } catch let unmet as StoreSaveConditionUnmet {
                            unmetCondition = unmet
                            throw unmet
                        }
                        try executor.recordIssuedKeys()
                        var transaction: Int64?
                        if recordsHistory {
                            let recorded = try HistoryRecorder.record(
                                sequence.journal, author: changes.author, followsOwnSave: followsOwnSave,
                                on: connection)
                            transaction = recorded
                            // Retention is enforced every 64th transaction, in the save's own transaction.
                            pruned = historyRetention.isDue(after: recorded)
                            if pruned { try pruneHistory(connection) }
                        }
                        try beforeCommit()
                        return (result, transaction)
                    }
                }
            } catch {
                connection.forgetOwnSave()
                if let unmetCondition { throw unmetCondition }
                throw error
            }
            if pruned { connection.forgetOwnSave() } else { connection.noteOwnSaveCommitted() }
            let (result, recorded) = written
            if let recorded { ownTransactions.note(recorded) }
            return result
        }
    }
}

extension SQLiteStore {
    /// Refuses to write through a connection whose file was deleted, renamed or replaced since it opened: the
    /// save would go to a file no later open of the path sees.
    ///
    /// - Throws: `StrataError.storeFailure` saying the file was moved or replaced.
    func checkFileInPlace(_ connection: SQLiteConnection) throws {
        guard connection.fileHasMoved else { return }
        throw StrataError.storeFailure(
            operation: "save",
            reason:
                "the store file \(path ?? "") was deleted, moved or replaced while the container had it open; nothing was written (open a new container)"
        )
    }
}
