import Foundation
import Synchronization

extension SQLiteStore {
    /// Deletes every row of every model and join table and the whole history in one transaction (so tokens taken
    /// before then expire), then compacts the file, empties the `-wal` log and removes the backups written before
    /// migrations: the file then holds what a new store holds.
    ///
    /// - Throws: `StrataError.readOnlyContainer`, `StrataError.storeClosed`, `StrataError.storeFailure`.
    package func eraseAllData() throws {
        guard !isReadOnly else { throw StrataError.readOnlyContainer(operation: "erase the store") }
        try withConnection { connection in
            try translatingErrors("erase the store") {
                try connection.transaction {
                    // Rows of different tables refer to each other: checked once everything is gone.
                    try connection.execute("PRAGMA defer_foreign_keys = ON")
                    for table in schema.storedTableNames.reversed() {
                        try connection.run("DELETE FROM \(identifier: table)")
                    }
                    if HistoryTables.exist(on: connection) {
                        let newest = try connection.query(HistoryTables.newestTransactionQuery).first?.first
                        try deleteHistory(StoreHistoryFetch(), on: connection)
                        // The erase itself is in no transaction: every token taken before it expires, the newest too.
                        if case .integer(let through)? = newest, through > 0 {
                            try connection.run(HistoryTables.recordDeleted(through: through + 1))
                        }
                    }
                }
                guard path != nil else { return }
                try connection.execute("VACUUM")
                _ = try? connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            }
        }
        erasures.add(1, ordering: .sequentiallyConsistent)
        if let path { Self.removeBackups(of: path) }
    }

    package var eraseCount: Int { erasures.load(ordering: .sequentiallyConsistent) }

    /// Removes the backups written before migrating the store at `path` (`<file>.backup-…`, and partial ones).
    private static func removeBackups(of path: String) {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        let name = url.lastPathComponent
        for file in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        where file.hasPrefix(name + ".backup-") || file.hasPrefix(name + ".partial-backup-") {
            try? FileManager.default.removeItem(atPath: directory + "/" + file)
        }
    }
}
