import CLibPQ
import Foundation
import Strata

/// One libpq connection. Values are always bound as parameters (`$1`, `$2`, …), never spliced into SQL.
///
/// Statements run through ``preparedQuery(_:_:)`` are prepared once per connection (see
/// ``PostgresPreparedStatements``). Not thread-safe: the pool hands a connection to one caller at a time.
package final class PostgresConnection {
    let handle: OpaquePointer
    /// Whether a transaction is open on this connection.
    package internal(set) var isInTransaction = false
    private var savepointDepth = 0
    /// The statements prepared on this connection (they live as long as its session).
    var preparedStatements = PostgresPreparedStatements()
    /// Whether ``preparedQuery(_:_:)`` prepares statements; off while a migration changes tables in its
    /// transaction, where a prepared statement whose result type changed would fail the whole migration.
    package var reusesStatements = true

    /// Connects with a libpq connection string or URI, then applies the session settings.
    /// With several hosts (`host=a,b&port=1,2` and `target_session_attrs=read-write`, libpq's own syntax) libpq tries
    /// them in turn and keeps the first that accepts writes: after a failover, a new connection reaches the new primary.
    /// - Throws: ``PostgresError`` (without SQLSTATE) when no server can be reached or the login is refused;
    ///   SQLSTATE `53300` when the server has no connection left (`max_connections`).
    package init(conninfo: String, settings: [String] = []) throws {
        guard let handle = PQconnectdb(conninfo) else {
            throw PostgresError(sqlState: nil, message: "libpq could not allocate a connection")
        }
        guard PQstatus(handle) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(handle)).trimmingTrailingNewlines
            PQfinish(handle)
            throw PostgresError.refusedConnection(message)
        }
        self.handle = handle
        // Notices (`DROP … CASCADE` listing what it drops, …) are not errors; libpq would print them to stderr.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
        for setting in settings { try execute(setting) }
    }

    deinit { PQfinish(handle) }

    /// Whether the connection is still usable (libpq noticed no broken socket).
    package var isHealthy: Bool { PQstatus(handle) == CONNECTION_OK && PQtransactionStatus(handle) != PQTRANS_UNKNOWN }

    /// Whether an idle connection is still usable: reads what the server sent meanwhile (a server shutting down or
    /// ending the session sends a last message before closing), which updates ``isHealthy``.
    package var isAlive: Bool {
        PQconsumeInput(handle) == 1 && isHealthy
    }

    /// Runs SQL without parameters (one or more statements, as the simple-query protocol allows).
    /// - Throws: ``PostgresError``.
    package func execute(_ sql: String) throws {
        _ = try check(PQexec(handle, sql))
    }

    /// Runs a statement that takes no parameters (DDL), its values written as literals.
    /// - Throws: ``PostgresError``.
    package func execute(_ statement: SQLFragment) throws {
        try execute(statement.inlined(in: PostgreSQLDialect()))
    }

    /// Runs one statement with its parameters bound: integers and reals as their exact text with their types, text
    /// untyped (so the server reads it as the column it is compared with or stored into: `numeric`, `text`…),
    /// bytes in binary. The rows come back as text, or in binary for `resultFormat` 1.
    /// - Throws: ``PostgresError``, with SQLSTATE `22021` before anything is sent when a text parameter holds
    ///   U+0000 (PostgreSQL text can't, and libpq would silently cut the text there).
    @discardableResult
    package func query(_ sql: String, _ parameters: [StoredValue], resultFormat: Int32 = 0) throws -> PostgresResult {
        try withBindings(parameters) { bindings in
            try check(
                PQexecParams(
                    handle, sql, bindings.count, bindings.types, bindings.values, bindings.lengths, bindings.formats,
                    resultFormat))
        }
    }

    /// Runs one statement written as an ``SQLFragment``, its values bound as ``query(_:_:resultFormat:)`` binds them.
    /// - Throws: ``PostgresError``.
    @discardableResult
    package func query(_ statement: SQLFragment, resultFormat: Int32 = 0) throws -> PostgresResult {
        let (sql, parameters) = statement.render(in: PostgreSQLDialect())
        return try query(sql, parameters, resultFormat: resultFormat)
    }

    /// Binds `parameters` for libpq for the duration of `body`.
    /// - Throws: ``PostgresError`` with SQLSTATE `22021` when a text parameter holds U+0000; whatever `body` throws.
    func withBindings<T>(_ parameters: [StoredValue], _ body: (PostgresBindings) throws -> T) throws -> T {
        for (index, parameter) in parameters.enumerated() {
            if case .text(let text) = parameter, text.utf8.contains(0) {
                throw PostgresError(
                    sqlState: "22021",
                    message: "parameter $\(index + 1) is text holding U+0000 (NUL), which PostgreSQL text can't store")
            }
        }
        // Sized up front and filled without intermediate arrays: every statement binds its parameters here.
        var types: [Oid] = []
        var formats: [Int32] = []
        var lengths: [Int32] = []
        var buffers: [UnsafeMutablePointer<CChar>?] = []
        types.reserveCapacity(parameters.count)
        formats.reserveCapacity(parameters.count)
        lengths.reserveCapacity(parameters.count)
        buffers.reserveCapacity(parameters.count)
        defer { for buffer in buffers { buffer?.deallocate() } }
        func append(_ bytes: some Collection<UInt8>, type: Oid, binary: Bool) {
            let count = bytes.count
            let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: count + 1)
            var offset = 0
            for byte in bytes {
                buffer[offset] = CChar(bitPattern: byte)
                offset += 1
            }
            buffer[count] = 0
            buffers.append(buffer)
            types.append(type)
            formats.append(binary ? 1 : 0)
            lengths.append(Int32(count))
        }
        for parameter in parameters {
            switch parameter {
            case .null:
                buffers.append(nil)
                types.append(0)
                formats.append(0)
                lengths.append(0)
            // int8's binary form: eight bytes, most significant first.
            case .integer(let value):
                withUnsafeBytes(of: value.bigEndian) { append($0, type: PostgresType.int8, binary: true) }
            case .real(let value): append(PostgresType.text(of: value).utf8, type: PostgresType.float8, binary: false)
            case .text(let value): append(value.utf8, type: 0, binary: false)
            case .blob(let bytes): append(bytes, type: PostgresType.bytea, binary: true)
            }
        }
        return try buffers.withUnsafeBufferPointer { values in
            try values.withMemoryRebound(to: UnsafePointer<CChar>?.self) { values in
                try body(
                    PostgresBindings(
                        count: Int32(parameters.count), types: types, values: values.baseAddress, lengths: lengths,
                        formats: formats))
            }
        }
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws. Inside a transaction
    /// (a custom migration stage's save, which runs in the migration's), `body` runs in a savepoint instead.
    /// - Throws: whatever `body` throws, or ``PostgresError`` when beginning or committing fails.
    package func transaction<T>(_ body: () throws -> T) throws -> T {
        if isInTransaction { return try savepoint(body) }
        try execute("BEGIN")
        isInTransaction = true
        defer { isInTransaction = false }
        let value: T
        do {
            value = try body()
            try execute("COMMIT")
        } catch {
            if isHealthy { try? execute("ROLLBACK") }
            throw error
        }
        return value
    }

    /// Runs `body` in a savepoint of the open transaction: released when it returns, rolled back to when it throws.
    func savepoint<T>(_ body: () throws -> T) throws -> T {
        savepointDepth += 1
        defer { savepointDepth -= 1 }
        let name = "strata_savepoint_\(savepointDepth)"
        try execute("SAVEPOINT \(name)")
        do {
            let value = try body()
            try execute("RELEASE SAVEPOINT \(name)")
            return value
        } catch {
            if isHealthy { try? execute("ROLLBACK TO SAVEPOINT \(name)") }
            throw error
        }
    }

    func check(_ result: OpaquePointer?) throws -> PostgresResult {
        guard let result else {
            throw PostgresError(
                sqlState: nil, message: String(cString: PQerrorMessage(handle)).trimmingTrailingNewlines)
        }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            return PostgresResult(handle: result)
        default:
            let error = PostgresError(result: result)
            PQclear(result)
            throw error
        }
    }
}
