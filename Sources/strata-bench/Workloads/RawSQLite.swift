import CSQLite
import Foundation

/// A failed SQLite call in the raw implementation.
struct RawSQLiteError: Error, CustomStringConvertible {
    var description: String
}

/// A bare SQLite connection with the same open flags and pragmas Strata uses (`SQLITE_OPEN_NOMUTEX`, WAL,
/// `synchronous=NORMAL`). Without `NOMUTEX` every `sqlite3_column_*` call would lock and unlock the connection's
/// mutex (a fifth of the floor's instructions when it enumerates), which Strata doesn't pay.
final class RawDatabase: RawSQLConnection {
    private(set) var handle: OpaquePointer?

    /// The columns of the `Item` table, in the order every statement here binds and reads them.
    static let columns = [
        "id", "score", "name", "created", "isActive", "note", "count", "category", "weight", "flagged",
    ]
    static let columnList = columns.map { "\"\($0)\"" }.joined(separator: ", ")

    init(path: String) throws {
        guard
            sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
                == SQLITE_OK
        else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(handle)
            throw RawSQLiteError(description: "open \(path): \(message)")
        }
        try execute("PRAGMA journal_mode=WAL")
        try execute("PRAGMA synchronous=NORMAL")
    }

    deinit { sqlite3_close_v2(handle) }

    /// Creates the table and index Strata creates for `Item`, if they are missing.
    func createSchema() throws {
        try execute(
            """
            CREATE TABLE IF NOT EXISTS "Item" ("Z_PK" INTEGER PRIMARY KEY, "id" INTEGER NOT NULL, \
            "score" REAL NOT NULL, "name" TEXT NOT NULL, "created" REAL NOT NULL, "isActive" INTEGER NOT NULL, \
            "note" TEXT, "count" INTEGER NOT NULL, "category" TEXT NOT NULL, "weight" REAL NOT NULL, \
            "flagged" INTEGER NOT NULL)
            """)
        try execute("CREATE INDEX IF NOT EXISTS \"Item_score_index\" ON \"Item\" (\"score\")")
    }

    func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(handle, sql, nil, nil, &message) == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? "unknown error"
            sqlite3_free(message)
            throw RawSQLiteError(description: "\(sql): \(text)")
        }
    }

    func prepare(_ sql: String) throws -> RawStatement {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw RawSQLiteError(description: "prepare \(sql): \(String(cString: sqlite3_errmsg(handle)))")
        }
        return RawStatement(statement, database: handle)
    }

    /// Inserts rows `0..<count` in one transaction with one prepared statement.
    func insertRows(_ count: Int) throws {
        let statement = try prepare("INSERT INTO \"Item\" (\(Self.columnList)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        try transaction {
            for index in 0..<count { try statement.insert(ItemRow.make(index)) }
        }
    }
}

/// A prepared statement of the raw implementation, finalized when released.
final class RawStatement {
    let pointer: OpaquePointer
    private let database: OpaquePointer?

    init(_ pointer: OpaquePointer, database: OpaquePointer?) {
        self.pointer = pointer
        self.database = database
    }

    deinit { sqlite3_finalize(pointer) }

    /// Steps once; `true` while a row is available.
    func step() throws -> Bool {
        switch sqlite3_step(pointer) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw RawSQLiteError(description: "step: \(String(cString: sqlite3_errmsg(database)))")
        }
    }

    func bind(_ value: Int, at index: Int32) { sqlite3_bind_int64(pointer, index, Int64(value)) }
    func bind(_ value: Double, at index: Int32) { sqlite3_bind_double(pointer, index, value) }
    func bind(_ value: String?, at index: Int32) {
        guard let value else {
            sqlite3_bind_null(pointer, index)
            return
        }
        sqlite3_bind_text(pointer, index, value, -1, strata_sqlite_transient())
    }

    /// Runs this insert of a numbered row (key `number + 1`, `number`, and the name "`prefix`-`number`") and resets
    /// it for the next row.
    func insertNumbered(_ number: Int, prefix: String) throws {
        bind(number + 1, at: 1)
        bind(number, at: 2)
        bind("\(prefix)-\(number)", at: 3)
        _ = try step()
        sqlite3_reset(pointer)
    }

    /// Binds a row to parameters 1...10, runs the statement and resets it.
    func insert(_ row: ItemRow) throws {
        bind(row.id, at: 1)
        bind(row.score, at: 2)
        bind(row.name, at: 3)
        bind(row.created.timeIntervalSinceReferenceDate, at: 4)
        bind(row.isActive ? 1 : 0, at: 5)
        bind(row.note, at: 6)
        bind(row.count, at: 7)
        bind(row.category, at: 8)
        bind(row.weight, at: 9)
        bind(row.flagged ? 1 : 0, at: 10)
        _ = try step()
        sqlite3_reset(pointer)
    }

    /// Reads columns `first..<first + 10` of the current row, in `RawDatabase.columns` order.
    func row(from first: Int32 = 0) -> ItemRow {
        ItemRow(
            id: Int(sqlite3_column_int64(pointer, first)),
            score: sqlite3_column_double(pointer, first + 1),
            name: text(first + 2) ?? "",
            created: Date(timeIntervalSinceReferenceDate: sqlite3_column_double(pointer, first + 3)),
            isActive: sqlite3_column_int64(pointer, first + 4) != 0,
            note: text(first + 5),
            count: Int(sqlite3_column_int64(pointer, first + 6)),
            category: text(first + 7) ?? "",
            weight: sqlite3_column_double(pointer, first + 8),
            flagged: sqlite3_column_int64(pointer, first + 9) != 0)
    }

    private func text(_ column: Int32) -> String? {
        guard let bytes = sqlite3_column_text(pointer, column) else { return nil }
        return String(cString: bytes)
    }
}
