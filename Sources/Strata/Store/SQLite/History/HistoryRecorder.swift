import Foundation

/// Records one save's history inside the save's own SQLite transaction, once its writes are done: the transaction
/// row, then the rows derived from the save's journal (``SaveJournal/historyRows()``), so a failed save, rolled
/// back, leaves no history either. The statements' texts are rendered once per process and prepared once per
/// connection, which keeps them (``SQLiteConnection/KeptSQL``); a history row costs one `INSERT` of bound values.
///
/// A save whose history is one change row — one change, or one run of alike changes, as most saves in an editor
/// are — writes it into its transaction row's own columns (``HistoryTables/inlineChangeColumns``, layout version
/// 5): one row and one page fewer at `COMMIT`.
enum HistoryRecorder {
    /// The `INSERT` of a transaction row (``HistoryTables/transactionInsert``).
    private static let transactionInsert = render(HistoryTables.transactionInsert)
    /// The `INSERT` of a change row.
    private static let changeInsert = render(
        HistoryTables.insert(
            into: HistoryTables.changes, columns: ["transaction", "position"] + HistoryTables.inlineChangeColumns))
    /// The `INSERT` of a tombstone value.
    private static let tombstoneInsert = render(
        HistoryTables.insert(into: HistoryTables.tombstones, columns: ["transaction", "position", "name", "value"]))

    /// The program and process names of every transaction row, bound without a copy.
    private static let bundle = SQLiteStaticText(StoredHistoryTransaction.currentBundleIdentifier)
    private static let process = SQLiteStaticText(StoredHistoryTransaction.currentProcessIdentifier)

    private static func render(_ statement: SQLFragment) -> SQLiteConnection.KeptSQL {
        SQLiteConnection.KeptSQL(statement.render(in: SQLiteDialect()).sql)
    }

    /// Writes the history of the save `journal` describes (`nil`: a save that wrote no row) and returns its
    /// transaction identifier.
    ///
    /// - Parameter followsOwnSave: Nothing has committed since this connection's last save, whose transaction row is
    ///   the newest (``SQLiteConnection/nothingCommittedSinceOwnSave``).
    static func record(
        _ journal: SaveJournal?, author: String?, followsOwnSave: Bool, on connection: SQLiteConnection
    ) throws -> Int64 {
        let (changes, tombstones) = journal?.historyRows() ?? ([], [])
        // A lone change row at the first position goes into the transaction row.
        let inline = changes.count == 1 && changes[0].position == 0 ? changes[0] : nil
        let statement = try connection.prepare(transactionInsert)
        // The flag, then the values of `HistoryTables.transactionValues(author:)`, bound one by one, then the
        // inline change's, left `NULL` without one.
        try statement.bind(.integer(followsOwnSave ? 1 : 0), at: 1)
        try statement.bind(.real(HistoryTables.transactionTime()), at: 2)
        try statement.bind(author.map { .text($0) } ?? .null, at: 3)
        try statement.bind(bundle, at: 4)
        try statement.bind(process, at: 5)
        if let inline {
            try write(inline, from: 6, with: statement)
        } else {
            defer { statement.reset() }
            _ = try statement.step()
        }
        let transaction = connection.lastInsertRowID
        if inline == nil, !changes.isEmpty {
            let changeStatement = try connection.prepare(changeInsert)
            for change in changes {
                try changeStatement.bind(.integer(transaction), at: 1)
                try changeStatement.bind(.integer(change.position), at: 2)
                try write(change, from: 3, with: changeStatement)
            }
        }
        guard !tombstones.isEmpty else { return transaction }
        let tombstoneStatement = try connection.prepare(tombstoneInsert)
        for tombstone in tombstones {
            defer { tombstoneStatement.reset() }
            try tombstoneStatement.bind(.integer(transaction), at: 1)
            try tombstoneStatement.bind(.integer(tombstone.position), at: 2)
            try tombstoneStatement.bind(.text(tombstone.name), at: 3)
            try tombstoneStatement.bind(tombstone.value, at: 4)
            _ = try tombstoneStatement.step()
        }
        return transaction
    }

    /// Binds `change`'s columns (``HistoryTables/inlineChangeColumns``, in order) to the parameters from `first`,
    /// runs `statement` and resets it.
    private static func write(_ change: HistoryChangeRow, from first: Int32, with statement: SQLiteStatement) throws {
        defer { statement.reset() }
        try statement.bind(.integer(change.kind.rawValue), at: first)
        try statement.bind(.integer(change.row), at: first + 2)
        try statement.bind(.integer(change.count), at: first + 3)
        try statement.bind(change.keys.map { .blob($0) } ?? .null, at: first + 5)
        // The entity's name and the attributes' are bound in place while the row is written, not copied into
        // memory SQLite allocates and frees for each row.
        try statement.withText(change.entity, boundAt: first + 1) {
            guard let attributes = change.attributes else {
                try statement.bind(.null, at: first + 4)
                _ = try statement.step()
                return
            }
            try statement.withText(attributes, boundAt: first + 4) { _ = try statement.step() }
        }
    }
}

extension Schema.Entity {
    /// The names of the properties at `indexes`, comma-separated: an update's changed properties as history
    /// records them.
    package func historyAttributeNames<Indexes: Sequence<Int>>(_ indexes: Indexes) -> String {
        indexes.map { persistentProperties[$0].name }.joined(separator: ",")
    }
}
