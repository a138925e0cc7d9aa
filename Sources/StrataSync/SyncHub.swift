import Foundation
import Strata
import StrataPostgres

/// The hub every device syncs with: a Strata store in a PostgreSQL schema, created from the same `Schema`, which
/// server code may open and use like any other store. Beside the store's own tables the hub keeps
/// `strata_sync_devices` (each device's mark: the newest of its local history transactions the hub applied) and
/// what tells commit order: each history transaction's PostgreSQL transaction id (`xid`), which a fetch compares
/// with the snapshot of the fetch before it.
struct SyncHub: Sendable {
    let container: ModelContainer
    let store: PostgresStore

    /// The table of devices and their marks.
    static let devicesTable = "strata_sync_devices"
    /// The index of the history transactions by PostgreSQL transaction id, created last when the hub is prepared.
    static let transactionIdIndex = "strata_history_transactions_xid"

    /// Opens (or creates) the hub's store for `schema` and adds what sync keeps beside it.
    /// - Throws: ``SyncError/hubUnavailable(operation:reason:)``.
    /// - Throws: ``SyncError/schemaMismatch(device:hub:differences:)`` when the hub holds other models: a device
    ///   never migrates the hub.
    init(schema: Schema, configuration: PostgresConfiguration) throws {
        let steps: [MigrationStep]
        do {
            steps = try configuration.plannedMigration(schema: schema, migrationPlan: nil)
        } catch {
            throw SyncError.hubUnavailable(operation: "read its schema", reason: "\(error)")
        }
        if let first = steps.first {
            throw SyncError.schemaMismatch(
                device: "\(schema.version)", hub: first.fromVersion.map { "\($0)" } ?? "unversioned",
                differences: steps.flatMap { $0.changes.map(\.description) })
        }
        do {
            container = try ModelContainer(for: schema, migrationPlan: nil, configurations: [configuration])
        } catch {
            throw SyncError.hubUnavailable(operation: "open", reason: "\(error)")
        }
        guard let store = container.store as? PostgresStore else {
            throw SyncError.hubUnavailable(
                operation: "open", reason: "the hub's configuration opened no PostgreSQL store")
        }
        self.store = store
        try run("prepare for sync") { connection in
            let transactions = table(HistoryTables.transactions)
            // A transaction-level advisory lock keeps two devices preparing one hub from racing on the DDL.
            try connection.transaction {
                try connection.query(
                    "SELECT pg_advisory_xact_lock(hashtext('strata.sync'), hashtext(\(bind: .text(store.databaseSchema))))"
                )
                // Prepared before (the index comes last): no DDL, whose table locks would stop the hub's saves.
                let index = table(Self.transactionIdIndex).inlined(in: PostgreSQLDialect())
                let prepared = try connection.query("SELECT to_regclass(\(bind: .text(index))) IS NOT NULL")
                if prepared.text(row: 0, column: 0) == "t" { return }
                let statements: [SQLFragment] = [
                    "CREATE TABLE IF NOT EXISTS \(table(Self.devicesTable)) (device text PRIMARY KEY, "
                        + "sent_through bigint NOT NULL DEFAULT 0, created timestamptz NOT NULL DEFAULT now())",
                    "ALTER TABLE \(transactions) ADD COLUMN IF NOT EXISTS xid xid8 DEFAULT pg_current_xact_id()",
                    "CREATE INDEX IF NOT EXISTS \(identifier: Self.transactionIdIndex) ON \(transactions) (xid)",
                ]
                for statement in statements { try connection.execute(statement) }
            }
        }
    }

    /// The hub's current snapshot (`pg_current_snapshot()` as text): which transactions had committed.
    func snapshot() throws -> String {
        try run("read its snapshot") { connection in
            let result = try connection.query("SELECT pg_current_snapshot()::text", [])
            guard let snapshot = result.text(row: 0, column: 0) else {
                throw SyncError.hubUnavailable(operation: "read its snapshot", reason: "no snapshot came back")
            }
            return snapshot
        }
    }

    /// The history transactions (other than `author`'s) of every PostgreSQL transaction that committed after
    /// `snapshot` was taken — not visible in it, visible now — by identifier, and the snapshot they were read in.
    /// A transaction still running is in neither snapshot's view, so it is read by a later call: commit order,
    /// not identifier order, decides what has been read.
    func transactions(
        committedAfter snapshot: String, excludingAuthor author: String
    ) throws -> (identifiers: [Int64], snapshot: String) {
        try run("read its history") { connection in
            // One snapshot for both statements: the one returned is the one the history was read in.
            try connection.transaction {
                try connection.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
                let current = try connection.query("SELECT pg_current_snapshot()::text", [])
                guard let now = current.text(row: 0, column: 0) else {
                    throw SyncError.hubUnavailable(operation: "read its snapshot", reason: "no snapshot came back")
                }
                let since: SQLFragment = "\(bind: .text(snapshot))::text::pg_snapshot"
                let query: SQLFragment =
                    "SELECT id FROM \(table(HistoryTables.transactions)) WHERE xid >= pg_snapshot_xmin(\(since)) "
                    + "AND NOT pg_visible_in_snapshot(xid, \(since)) "
                    + "AND author IS DISTINCT FROM \(bind: .text(author)) ORDER BY id"
                let result = try connection.query(query)
                return ((0..<result.count).map { result.int64(row: $0, column: 0) }, now)
            }
        }
    }

    /// Adds `device` to the devices table, if it is not there yet.
    func register(device: UUID) throws {
        try run("register this device") { connection in
            _ = try connection.query(
                "INSERT INTO \(table(Self.devicesTable)) (device) VALUES (\(bind: .text(device.uuidString))) "
                    + "ON CONFLICT (device) DO NOTHING")
        }
    }

    /// The condition a push's save runs first: it moves the device's mark to `transaction`, the newest local history
    /// transaction the push carries, and changes no row — so the save writes nothing — when the mark is already
    /// there or past it (the push was applied before).
    func markCondition(device: UUID, through transaction: Int64, entity: Schema.Entity) -> StoreSaveCondition {
        StoreSaveCondition(
            """
            UPDATE \(table(Self.devicesTable)) \
            SET sent_through = \(bind: .integer(transaction)) \
            WHERE device = \(bind: .text(device.uuidString)) AND sent_through < \(bind: .integer(transaction))
            """,
            entity: entity,
            description: "device \(device) already sent its changes through local transaction \(transaction)")
    }

    /// Runs `body` on a connection of the hub's store, reporting a failure as the hub being unavailable.
    private func run<T>(_ operation: String, _ body: (PostgresConnection) throws -> T) throws -> T {
        do {
            return try store.withPrimaryConnection(operation, body)
        } catch let error as SyncError {
            throw error
        } catch {
            throw SyncError.hubUnavailable(operation: operation, reason: "\(error)")
        }
    }

    /// A table or index of the hub's schema, by its qualified name.
    private func table(_ name: String) -> SQLFragment {
        "\(identifier: store.databaseSchema).\(identifier: name)"
    }
}
