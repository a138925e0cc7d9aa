import Foundation
import Synchronization

/// A store in one SQLite database file (or in memory): one table per entity, a `strata_metadata` table
/// recording the schema it holds, WAL journaling, and every save in one transaction.
package final class SQLiteStore: SQLPersistentStore, @unchecked Sendable {
    // `@unchecked` because the connection is guarded by `lock`; everything else is immutable.
    package let schema: Schema
    package let identifier: String
    package let isReadOnly: Bool
    /// The database file's path, or `nil` in memory.
    package let path: String?
    package let dialect = SQLiteDialect()
    /// The open connection; `nil` once the store is closed (see `SQLiteStore+Close.swift`). Guarded by `lock`.
    var openConnection: SQLiteConnection?
    /// Serializes every use of the connection, which is opened without SQLite's own mutex.
    let lock = NSLock()
    /// The commit watchers running, which closing the store stops.
    let watchers = StoreWatchers()
    /// How many of the store's commit watcher threads are running now.
    package var runningWatcherCount: Int { watchers.runningCount }
    /// How many times the store was erased (see `SQLiteStore+Erase.swift`).
    let erasures = Atomic<Int>(0)
    /// SQLite's schema cookie when the store last checked that its tables hold this schema.
    let knownSchemaCookie = Mutex<Int64>(0)
    /// Whether the file has the history tables, so saves record their history (a store opened read-only before
    /// any writer added them has none; a later check of the schema cookie notices when one does).
    let historyTablesExist = Atomic<Bool>(false)
    /// What history the store keeps (`ModelConfiguration.historyRetentionInterval` / `historyRetentionLimit`).
    let historyRetention: HistoryRetention
    /// Whether saves record a history transaction.
    var recordsHistory: Bool {
        historyTablesExist.load(ordering: .relaxed) && !historyRecordingSuspended.load(ordering: .relaxed)
    }
    private let historyRecordingSuspended = Atomic<Bool>(false)
    /// The history transactions this store wrote while its commit watcher runs.
    let ownTransactions = StoreWrittenTransactions()
    /// The statements of earlier saves, by shape, which later saves reuse.
    package let saveStatements = SaveStatementCache()
    /// The statements of earlier fetches, which the same fetch run again reuses.
    package let fetchStatements = FetchStatementCache()

    /// Stops (or resumes) recording history, to measure what recording costs (`strata-bench --no-history`).
    /// Stores always record history otherwise, as SwiftData's do; a store that skips it leaves gaps readers can't see.
    package func suspendHistoryRecording(_ suspended: Bool) {
        historyRecordingSuspended.store(suspended, ordering: .relaxed)
    }

    /// Opens the store at `path` (`nil`: a private in-memory store), creating it when missing.
    ///
    /// - Throws: `StrataError.notAStrataStore` for a foreign or corrupt file, `StrataError.schemaMismatch` when
    ///   the file holds other models, `StrataError.storeOpenFailed` when it can't be opened or created. In
    ///   every case the file is left untouched.
    package init(
        schema: Schema, path: String?, readOnly: Bool, migrationPlan: StoreMigrationPlan? = nil,
        backsUpBeforeMigrating: Bool = false,
        integrityCheck: SQLiteConnection.IntegrityCheck = .automatic,
        historyRetention: HistoryRetention = HistoryRetention()
    ) throws {
        try schema.checkStorable()
        self.schema = schema
        self.path = path
        self.isReadOnly = readOnly
        self.historyRetention = historyRetention
        let displayPath = path ?? ":memory:"
        let opened: SQLiteConnection
        do {
            let location: SQLiteConnection.Location = path.map { .file($0) } ?? .memory
            opened = try SQLiteConnection(
                location: location, readOnly: readOnly && path != nil, createIfMissing: !readOnly,
                integrityCheck: integrityCheck)
        } catch let error where error.isNotADatabase || error.isCorrupt {
            throw StrataError.notAStrataStore(path: displayPath, reason: error.message)
        } catch {
            throw StrataError.storeOpenFailed(path: displayPath, reason: error.description)
        }
        self.identifier = try StoreBootstrap(
            connection: opened, schema: schema, path: displayPath, readOnly: readOnly, migrationPlan: migrationPlan,
            backupPath: backsUpBeforeMigrating ? path : nil
        ).run()
        self.openConnection = opened
        knownSchemaCookie.withLock { $0 = (try? Self.schemaCookie(of: opened)) ?? 0 }
        historyTablesExist.store(HistoryTables.exist(on: opened), ordering: .relaxed)
        if !readOnly, recordsHistory, historyRetention.isLimited {
            try withConnection { connection in
                try translatingErrors("delete history past its retention") {
                    try connection.transaction { try pruneHistory(connection) }
                }
            }
        }
    }

    /// A store over a connection that is migrating (a custom migration stage's context works through it).
    init(schema: Schema, connection: SQLiteConnection, path: String, identifier: String) {
        self.schema = schema
        self.path = path
        self.isReadOnly = false
        self.historyRetention = HistoryRetention()
        self.identifier = identifier
        self.openConnection = connection
        knownSchemaCookie.withLock { $0 = (try? Self.schemaCookie(of: connection)) ?? 0 }
        // A migration stage that runs before the history tables are added records no history.
        historyTablesExist.store(HistoryTables.exist(on: connection), ordering: .relaxed)
    }

    /// Runs `body` with exclusive use of the connection.
    ///
    /// - Throws: `StrataError.storeClosed` once the store is closed, or what `body` throws.
    package func withConnection<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        guard let connection = openConnection else { throw StrataError.storeClosed(path: path ?? ":memory:") }
        return try body(connection)
    }
}

extension SQLiteStore {
    package func fetch(_ request: StoreFetch, _ body: (any StoreRow) throws -> Void) throws {
        let (sql, bindings) = try fetchStatements.statement(for: request, purpose: .rows) {
            try SelectStatement.sqlite.rows($0).render(in: dialect)
        }
        try withConnection { connection in
            try detectingMigration(connection) {
                let statement = try translatingErrors("fetch \(request.entity.name)") { try connection.prepare(sql) }
                defer { statement.reset() }
                try translatingErrors("fetch \(request.entity.name)") { try statement.bind(bindings) }
                // Made once, not per row: passing the statement itself would box and retain it for every row, and
                // destroy the box after it.
                let row: any StoreRow = statement
                // The statement leaves the excluded keys out itself (`SQLiteSelectWriter.primaryKeyExclusion`).
                while try translatingErrors("fetch \(request.entity.name)", { try statement.step() }) {
                    try body(row)
                }
            }
        }
    }

    /// The keys in one loop over the statement: a batched fetch reads every matching key before its first batch,
    /// so the per-row cost of ``fetch(_:_:)``'s row handoff would be paid for each of them. A whole table's keys
    /// without gaps are known from its count and its least and greatest key (``unbrokenKeyRun(_:)``).
    package func fetchKeys(_ request: StoreFetch) throws -> [Int64] {
        if let run = try unbrokenKeyRun(request) { return run }
        var keysOnly = request
        keysOnly.columns = nil
        let (sql, bindings) = try fetchStatements.statement(for: keysOnly, purpose: .keys) {
            try SelectStatement.sqlite.rows($0).render(in: dialect)
        }
        return try withConnection { connection in
            try detectingMigration(connection) {
                try translatingErrors("fetch \(request.entity.name)") { () throws(SQLiteError) -> [Int64] in
                    let statement = try connection.prepare(sql)
                    defer { statement.reset() }
                    try statement.bind(bindings)
                    var keys: [Int64] = []
                    if let limit = keysOnly.limit { keys.reserveCapacity(Swift.min(limit, 10_000)) }
                    // The statement leaves the excluded keys out itself, as in `fetch(_:_:)`.
                    try statement.appendFirstColumnIntegers(to: &keys)
                    return keys
                }
            }
        }
    }

    package func count(_ request: StoreFetch) throws -> Int {
        let (sql, bindings) = try fetchStatements.statement(for: request, purpose: .count) {
            try SelectStatement.sqlite.count($0).render(in: dialect)
        }
        return try withConnection { connection in
            try detectingMigration(connection) {
                let statement = try translatingErrors("count \(request.entity.name)") { try connection.prepare(sql) }
                defer { statement.reset() }
                try translatingErrors("count \(request.entity.name)") { try statement.bind(bindings) }
                guard try translatingErrors("count \(request.entity.name)", { try statement.step() }) else { return 0 }
                return Int(statement.int64(at: 0))
            }
        }
    }
}

extension SQLiteStatement: StoreRow {}

/// Runs SQLite work, turning its errors into `StrataError.storeFailure` naming the operation; Strata's own
/// errors pass through. The operation's name is only built for an error: fetches run this once per row.
func translatingErrors<T>(_ operation: @autoclosure () -> String, _ body: () throws -> T) throws(StrataError) -> T {
    do {
        return try body()
    } catch let error as StrataError {
        throw error
    } catch let error as SQLiteError {
        throw StrataError.storeFailure(operation: operation(), reason: error.description)
    } catch {
        throw StrataError.storeFailure(operation: operation(), reason: "\(error)")
    }
}

extension SQLiteStore {
    package func execute(_ statement: SQLFragment, operation: @autoclosure () -> String) throws {
        try withConnection { connection in
            try translatingErrors(operation()) { try connection.run(statement) }
        }
    }

    package func integerPairs(_ query: SQLFragment, operation: @autoclosure () -> String) throws -> [(Int64, Int64)] {
        try withConnection { connection in
            try translatingErrors(operation()) {
                // Read column by column as the statement steps: a row of `StoredValue`s each would cost an array.
                let statement = try connection.prepareBound(query)
                defer { statement.reset() }
                guard statement.columnCount == 2 else { return [] }
                var pairs: [(Int64, Int64)] = []
                while try statement.step() {
                    guard statement.isInteger(at: 0), statement.isInteger(at: 1) else { continue }
                    pairs.append((statement.int64(at: 0), statement.int64(at: 1)))
                }
                return pairs
            }
        }
    }
}

extension SQLiteStore {
    /// How many statements the store's connection has run (see `SQLiteConnection.executedStatementCount`).
    package var executedStatementCount: Int {
        (try? withConnection { $0.executedStatementCount }) ?? 0
    }

    /// How many statements the store's connection has compiled (see `SQLiteConnection.compiledStatementCount`).
    package var compiledStatementCount: Int {
        (try? withConnection { $0.compiledStatementCount }) ?? 0
    }
}
