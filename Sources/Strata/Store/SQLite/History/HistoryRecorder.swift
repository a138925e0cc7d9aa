import Foundation

/// Records one save's history inside the save's own SQLite transaction: the transaction row first, then the rows
/// derived from the save's journal (``SaveJournal/historyRows()``), so a failed save, rolled back, leaves no history
/// either. The statements' texts are rendered once per process and prepared once per connection, which keeps them
/// (``SQLiteConnection/KeptSQL``); a history row costs one `INSERT` of bound values.
struct HistoryRecorder {
    let connection: SQLiteConnection
    /// The transaction identifier of the save being recorded.
    let transaction: Int64

    /// The `INSERT` of a transaction row (``HistoryTables/transactionValues(author:)`` bound).
    private static let transactionInsert = render(HistoryTables.transactionInsert)
    /// The `INSERT` of a change row.
    private static let changeInsert = render(
        HistoryTables.insert(
            into: HistoryTables.changes,
            columns: ["transaction", "position", "kind", "entity", "row", "count", "attributes", "keys"]))
    /// The `INSERT` of a tombstone value.
    private static let tombstoneInsert = render(
        HistoryTables.insert(into: HistoryTables.tombstones, columns: ["transaction", "position", "name", "value"]))

    /// The program and process names of every transaction row, bound without a copy.
    private static let bundle = SQLiteStaticText(StoredHistoryTransaction.currentBundleIdentifier)
    private static let process = SQLiteStaticText(StoredHistoryTransaction.currentProcessIdentifier)

    private static func render(_ statement: SQLFragment) -> SQLiteConnection.KeptSQL {
        SQLiteConnection.KeptSQL(statement.render(in: SQLiteDialect()).sql)
    }

    /// Writes the transaction row; `followsOwnSave`: nothing has committed since this connection's last save, whose
    /// transaction row is the newest (``SQLiteConnection/nothingCommittedSinceOwnSave``).
    init(connection: SQLiteConnection, author: String?, followsOwnSave: Bool) throws {
        self.connection = connection
        let statement = try connection.prepare(Self.transactionInsert)
        defer { statement.reset() }
        // The flag, then the values of `HistoryTables.transactionValues(author:)`, bound one by one.
        try statement.bind(.integer(followsOwnSave ? 1 : 0), at: 1)
        try statement.bind(.real(HistoryTables.transactionTime()), at: 2)
        try statement.bind(author.map { .text($0) } ?? .null, at: 3)
        try statement.bind(Self.bundle, at: 4)
        try statement.bind(Self.process, at: 5)
        try statement.runToCompletion()
        self.transaction = connection.lastInsertRowID
    }

    /// Writes the history rows of the save `journal` describes.
    func record(_ journal: SaveJournal) throws {
        let (changes, tombstones) = journal.historyRows()
        if !changes.isEmpty {
            let statement = try connection.prepare(Self.changeInsert)
            for change in changes {
                defer { statement.reset() }
                try statement.bind(.integer(transaction), at: 1)
                try statement.bind(.integer(change.position), at: 2)
                try statement.bind(.integer(change.kind.rawValue), at: 3)
                try statement.bind(.integer(change.row), at: 5)
                try statement.bind(.integer(change.count), at: 6)
                try statement.bind(change.keys.map { .blob($0) } ?? .null, at: 8)
                // The entity's name and the attributes' are bound in place while the row is written, not copied
                // into memory SQLite allocates and frees for each row.
                try statement.withText(change.entity, boundAt: 4) {
                    guard let attributes = change.attributes else {
                        try statement.bind(.null, at: 7)
                        _ = try statement.step()
                        return
                    }
                    try statement.withText(attributes, boundAt: 7) { _ = try statement.step() }
                }
            }
        }
        guard !tombstones.isEmpty else { return }
        let statement = try connection.prepare(Self.tombstoneInsert)
        for tombstone in tombstones {
            defer { statement.reset() }
            try statement.bind(.integer(transaction), at: 1)
            try statement.bind(.integer(tombstone.position), at: 2)
            try statement.bind(.text(tombstone.name), at: 3)
            try statement.bind(tombstone.value, at: 4)
            _ = try statement.step()
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
