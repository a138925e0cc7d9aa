import Foundation
import Strata
import Synchronization

/// A store in a PostgreSQL schema: one table per entity as on SQLite, reached through a pool of libpq connections,
/// every save in one transaction.
package final class PostgresStore: SQLPersistentStore, Sendable {
    package let schema: Schema
    package let identifier: String
    package let isReadOnly: Bool
    let configuration: PostgresConfiguration
    let pool: PostgresConnectionPool
    let writer = PostgresQueryWriter()
    /// The history transactions this store wrote while its commit watcher runs.
    let ownTransactions = StoreWrittenTransactions()
    /// The statements of earlier saves, by shape, which later saves reuse.
    package let saveStatements = SaveStatementCache()
    /// The statements of earlier fetches without text lookups, which the same fetch run again reuses.
    package let fetchStatements = FetchStatementCache()
    /// The commit watchers running, which closing the store stops.
    let watchers = StoreWatchers()
    /// How many of the store's commit watcher threads are running now.
    package var runningWatcherCount: Int { watchers.runningCount }
    /// How many times the store was erased (see `PostgresStore+Erase.swift`).
    let erasures = Atomic<Int>(0)
    /// The standbys reads may go to, when the configuration names any.
    let readReplicas: PostgresReadReplicas?

    /// Connects and opens the store, creating its schema, tables and functions when the schema holds none.
    ///
    /// - Throws: `StrataError.storeOpenFailed` when the server can't be reached, `StrataError.notAStrataStore` for
    ///   a schema holding other tables, `StrataError.migrationRefused` or `StrataError.unknownStoreVersion` when the
    ///   store holds other models and can't be migrated to these (`StrataError.schemaMismatch` when the configuration
    ///   doesn't allow saves), `StrataError.invalidSchema` for models that can't be stored; `storeOpenFailed` also
    ///   when the connection goes through a pooler in transaction mode (``checkSessionsAreKept(configuration:pool:)``).
    package init(schema: Schema, configuration: PostgresConfiguration, migrationPlan: StoreMigrationPlan? = nil) throws
    {
        try schema.checkStorable()
        self.schema = schema
        self.configuration = configuration
        self.isReadOnly = !configuration.allowsSave
        let conninfo = configuration.url.absoluteString
        let settings = configuration.sessionSettings
        self.pool = PostgresConnectionPool(
            maximum: configuration.maximumConnections, maximumWait: configuration.maximumConnectionWait
        ) {
            try PostgresConnection(conninfo: conninfo, settings: settings)
        }
        let readReplicas = PostgresReadReplicas(configuration: configuration)
        self.readReplicas = readReplicas
        let location = configuration.redactedURL
        // Behind a transaction pooler any statement could run in a session without the store's settings: refused
        // before anything is read or written.
        if configuration.changeNotification == .listen {
            try Self.checkSessionsAreKept(configuration: configuration, pool: pool)
        }
        do {
            self.identifier = try pool.withConnection { connection in
                let identifier = try PostgresBootstrap(
                    connection: connection, schema: schema, configuration: configuration, migrationPlan: migrationPlan
                ).run()
                // The tables the open created or migrated must be on a replica before it serves a read.
                readReplicas?.requireCurrentPosition(of: connection)
                return identifier
            }
        } catch let error as PostgresError {
            throw StrataError.storeOpenFailed(path: location, reason: error.description)
        }
        if !isReadOnly, configuration.historyRetention.isLimited {
            try withConnection("delete history past its retention") { connection in
                try connection.transaction { try pruneHistory(connection) }
            }
        }
    }

    /// A store over a connection that is migrating it, for a custom migration stage: its reads and saves run in
    /// the migration's transaction (saves as savepoints).
    init(
        schema: Schema, migrating connection: PostgresConnection, configuration: PostgresConfiguration,
        identifier: String
    ) {
        self.schema = schema
        self.configuration = configuration
        self.isReadOnly = false
        self.identifier = identifier
        self.pool = PostgresConnectionPool(pinned: connection)
        self.readReplicas = nil
    }

    /// Runs `body` on a pooled connection, reporting PostgreSQL's errors as `StrataError`s naming `operation`.
    /// A read (`isRead`) whose connection was lost — the server restarted, or an administrator ended it — runs once
    /// more on a new connection; a save is not run again (its error is the caller's to see), but the pool has
    /// dropped the broken connection, so the next call connects afresh.
    ///
    /// - Throws: `StrataError.storeMigrated` when the statement failed because another instance migrated this
    ///   store's tables, `StrataError.unsupportedPredicate`, or `StrataError.storeFailure` (whose reason never
    ///   holds the URL or its password).
    func withConnection<T>(
        _ operation: @autoclosure () -> String, isRead: Bool = true, _ body: (PostgresConnection) throws -> T
    ) throws -> T {
        do {
            do {
                return try pool.withConnection(body)
            } catch let error as PostgresError where isRead && error.isConnectionFailure {
                return try pool.withConnection(body)
            }
        } catch is PostgresConnectionPool.Closed {
            throw StrataError.storeClosed(path: configuration.redactedURL)
        } catch let error as PostgresError {
            throw translated(error, operation: operation())
        }
    }

    /// The `StrataError` a failed statement of `operation` is reported as.
    private func translated(_ error: PostgresError, operation: String) -> StrataError {
        if error.isUnsupportedText {
            return StrataError.unsupportedPredicate(expression: operation, reason: error.message)
        }
        if error.isUndefinedObject, let migrated = migratedElsewhere() { return migrated }
        return StrataError.storeFailure(operation: operation, reason: error.description)
    }
}

extension PostgresStore {
    /// Runs a read that a replica may serve: on a replica that has replayed everything this container wrote or was
    /// told of (see ``PostgresReadReplicas``), else on the primary, as ``withConnection(_:isRead:_:)``. A replica that
    /// can't be reached leaves the read to the primary.
    ///
    /// - Throws: what ``withConnection(_:isRead:_:)`` throws.
    func withReadConnection<T>(
        _ operation: @autoclosure () -> String, _ body: (PostgresConnection) throws -> T
    ) throws -> T {
        if let readReplicas, let replica = readReplicas.caughtUpReplica() {
            do {
                let result = try replica.pool.withConnection(body)
                readReplicas.replicaReads.add(1, ordering: .relaxed)
                return result
            } catch let error as PostgresError where error.isConnectionFailure {
                replica.rest()
                StrataLog.log(
                    .warning, "a read replica failed; reading from the primary",
                    metadata: ["reason": error.description],
                    category: "postgres")
            } catch is PostgresConnectionPool.Closed {
                throw StrataError.storeClosed(path: configuration.redactedURL)
            } catch let error as PostgresError {
                throw translated(error, operation: operation())
            }
        }
        guard let readReplicas else { return try withConnection(operation(), body) }
        readReplicas.primaryReads.add(1, ordering: .relaxed)
        return try withConnection(operation()) { connection in
            if readReplicas.isPositionUnknown { readReplicas.requireCurrentPosition(of: connection) }
            return try body(connection)
        }
    }

    /// How many reads replicas served, and how many went to the primary instead (none: no replicas are configured).
    package var replicaReadCounts: (replica: Int, primary: Int) {
        (
            readReplicas?.replicaReads.load(ordering: .relaxed) ?? 0,
            readReplicas?.primaryReads.load(ordering: .relaxed) ?? 0
        )
    }

    package func fetch(_ request: StoreFetch, _ body: (any StoreRow) throws -> Void) throws {
        // Binary results: each value is read from its bytes instead of parsed from text.
        let result = try withReadConnection("fetch \(request.entity.name)") { connection in
            try withStatement(for: request, .rows, leaves: PostgresTextLeaves(request), on: connection) {
                try connection.preparedQuery($0, $1, binaryResults: true)
            }
        }
        let row = PostgresRow(result: result)
        // Made once, not per row: passing the row itself would box it and retain its result for every row, and
        // destroy the box after it.
        let boxed: any StoreRow = row
        var window = FetchRowWindow(request)
        for index in 0..<result.count where !window.isFull {
            row.row = index
            if window.admitsEveryRow || window.admits(row.int64(at: 0)) { try body(boxed) }
        }
    }

    package func count(_ request: StoreFetch) throws -> Int {
        let result = try withReadConnection("count \(request.entity.name)") { connection in
            try withStatement(
                for: request, .count,
                leaves: PostgresTextLeaves(condition: request.condition, orderings: [], entity: request.entity),
                on: connection, { try connection.preparedQuery($0, $1) })
        }
        return result.count > 0 ? Int(result.int64(row: 0, column: 0)) : 0
    }

    package func execute(_ statement: SQLFragment, operation: @autoclosure () -> String) throws {
        try withConnection(operation(), isRead: false) { _ = try $0.preparedQuery(statement) }
    }

    package func integerPairs(_ query: SQLFragment, operation: @autoclosure () -> String) throws -> [(Int64, Int64)] {
        let result = try withReadConnection(operation()) { try $0.preparedQuery(query) }
        return (0..<result.count).map { (result.int64(row: $0, column: 0), result.int64(row: $0, column: 1)) }
    }
}

/// One row of a result at a time: the row `row`, moved along the result by its reader.
final class PostgresRow: StoreRow {
    let result: PostgresResult
    var row = 0

    init(result: PostgresResult) { self.result = result }

    func int64(at column: Int32) -> Int64 { result.int64(row: row, column: column) }

    func storedValue(at column: Int32) -> StoredValue { result.storedValue(row: row, column: column) }

    func readValues(
        _ columns: StoreRowColumns, into values: ValueSlots, version: inout Int64
    ) -> Bool {
        result.readValues(row: row, columns, into: values, version: &version)
    }
}

extension PostgresStore {
    /// Closes the store: stops its commit watcher (waiting for it, and for its `LISTEN` connection to close, with
    /// `waitingForWatchers`), lets the fetches and saves in progress finish, and closes every pooled connection.
    /// Later operations throw `StrataError.storeClosed`. Closing twice does nothing.
    package func close(waitingForWatchers: Bool) {
        watchers.stop(waiting: waitingForWatchers)
        pool.close()
        readReplicas?.close()
    }

    /// Stops the watcher (and its `LISTEN` session); the pool stays for the models still referenced, and closes with
    /// the store.
    package func containerWasReleased() {
        watchers.stop(waiting: false)
    }
}
