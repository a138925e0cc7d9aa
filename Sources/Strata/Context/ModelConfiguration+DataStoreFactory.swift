import Foundation

extension ModelConfiguration: DataStoreConfiguration {
    /// The store a model configuration opens.
    public typealias Store = DefaultStore
}

extension ModelConfiguration: DataStoreFactory {
    /// Plans the migration of the configured file, reading it only; empty in memory.
    package func plannedMigration(schema: Schema, migrationPlan: StoreMigrationPlan?) throws -> [MigrationStep] {
        guard !isStoredInMemoryOnly else { return [] }
        return try SQLiteStore.plannedMigration(schema: schema, path: url.path, migrationPlan: migrationPlan)
    }

    /// Opens the SQLite store in the configured file (its directory created when saves are allowed), or in memory.
    package func makeStore(schema: Schema, migrationPlan: StoreMigrationPlan?) throws -> any PersistentStore {
        var path: String?
        if !isStoredInMemoryOnly {
            if allowsSave {
                do {
                    try FileManager.default.createDirectory(
                        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                } catch {
                    throw StrataError.storeOpenFailed(
                        path: url.path, reason: "can't create its directory: \(error.localizedDescription)")
                }
            } else if !FileManager.default.fileExists(atPath: url.path) {
                throw StrataError.storeOpenFailed(
                    path: url.path,
                    reason:
                        "there is no store file, and configuration '\(name)' doesn't allow saves (allowsSave: false), "
                        + "so none can be created; ship the file there, or create it with a container that allows saves"
                )
            }
            path = url.path
        }
        return try SQLiteStore(
            schema: schema, path: path, readOnly: !allowsSave, migrationPlan: migrationPlan,
            backsUpBeforeMigrating: backsUpStoreBeforeMigration,
            integrityCheck: checksStoreIntegrityOnOpen ? .full : .automatic,
            historyRetention: HistoryRetention(
                maximumAge: historyRetentionInterval, maximumCount: historyRetentionLimit))
    }
}
