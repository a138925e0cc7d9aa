import Foundation

extension SQLiteStore {
    /// Plans the migration opening the store at `path` with `schema` would run, reading the file without writing
    /// to it: each stage with its changes, its SQL and its checks of the stored data. Empty when the file is
    /// missing (it would be created) or already holds `schema`.
    ///
    /// - Throws: `StrataError.notAStrataStore` for a foreign file, `StrataError.migrationRefused` or
    ///   `StrataError.unknownStoreVersion` when the open would refuse to migrate.
    package static func plannedMigration(
        schema: Schema, path: String, migrationPlan: StoreMigrationPlan?
    ) throws -> [MigrationStep] {
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        let connection: SQLiteConnection
        do {
            connection = try SQLiteConnection(location: .file(path), readOnly: true, createIfMissing: false)
        } catch let error where error.isNotADatabase || error.isCorrupt {
            throw StrataError.notAStrataStore(path: path, reason: error.message)
        } catch {
            throw StrataError.storeOpenFailed(path: path, reason: error.description)
        }
        let tableCount = try translatingErrors("list the store's tables") {
            try connection.query("SELECT count(*) FROM sqlite_master", [])
        }
        guard tableCount.first?.first != .integer(0) else { return [] }
        let bootstrap = StoreBootstrap(
            connection: connection, schema: schema, path: path, readOnly: true, migrationPlan: migrationPlan,
            backupPath: nil)
        let (stored, identifier) = try bootstrap.readStoredSchema()
        let migrator = StoreMigrator(
            connection: connection, schema: schema, plan: migrationPlan, path: path, identifier: identifier)
        let steps = try migrator.planning.steps(from: stored)
        guard MigrationSteps.needsMigration(steps) else { return [] }
        let sql = SQLiteMigrationSQL(dialect: SQLiteDialect())
        return MigrationSteps.plannedStages(steps) { sql.listing($0) }
    }
}
