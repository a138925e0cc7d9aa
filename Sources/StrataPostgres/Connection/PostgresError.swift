import CLibPQ

/// A failure PostgreSQL (or libpq) reported: the SQLSTATE code, the primary message and, for constraint
/// violations, the constraint's name. Never holds the connection's URL or password.
package struct PostgresError: Error, CustomStringConvertible, Sendable {
    /// The five-character SQLSTATE (`23505` for a unique violation); `nil` for a client-side failure such as a
    /// refused connection.
    package let sqlState: String?
    /// The server's (or libpq's) primary message.
    package let message: String
    /// The violated constraint, for integrity errors.
    package let constraint: String?

    package init(sqlState: String?, message: String, constraint: String? = nil) {
        self.sqlState = sqlState
        self.message = message
        self.constraint = constraint
    }

    /// The error a failed result describes.
    init(result: OpaquePointer) {
        func field(_ code: Character) -> String? {
            guard let value = PQresultErrorField(result, Int32(code.asciiValue ?? 0)) else { return nil }
            return String(cString: value)
        }
        self.sqlState = field("C")
        self.message = field("M") ?? String(cString: PQresultErrorMessage(result)).trimmingTrailingNewlines
        self.constraint = field("n")
    }

    package var description: String {
        sqlState.map { "\(message) (SQLSTATE \($0))" } ?? message
    }

    /// SQLSTATE `53300` (PostgreSQL's `too_many_connections`): the client-side error of a pool whose every
    /// connection stayed busy for `waited`.
    package static func poolExhausted(size: Int, waited: Duration) -> PostgresError {
        let connections = size == 1 ? "the pool's only connection" : "all \(size) connections of the pool"
        let milliseconds = waited.components.seconds * 1000 + waited.components.attoseconds / 1_000_000_000_000_000
        let wait = milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(milliseconds) ms"
        return PostgresError(
            sqlState: tooManyConnections,
            message: "\(connections) stayed busy for \(wait) "
                + "(PostgresConfiguration.maximumConnections = \(size)): raise maximumConnections or maximumConnectionWait, "
                + "or hold connections for less time")
    }

    /// The error of a connection the server refused because its `max_connections` (or the role's or database's
    /// connection limit) is reached: libpq gives no SQLSTATE for a failed connection, so it is recognised by the
    /// server's message, and gets `53300` and a hint.
    static func refusedConnection(_ message: String) -> PostgresError {
        let full = ["too many clients already", "remaining connection slots are reserved", "too many connections for"]
        guard full.contains(where: message.contains) else { return PostgresError(sqlState: nil, message: message) }
        return PostgresError(
            sqlState: tooManyConnections,
            message: message
                + " (the server's max_connections is reached: lower PostgresConfiguration.maximumConnections "
                + "across instances, raise max_connections, or put PgBouncer in front; the connection is tried again at the next use)"
        )
    }

    private static let tooManyConnections = "53300"

    /// `53300`: the server had no connection left for this client, or the pool none free within its wait.
    package var isOutOfConnections: Bool { sqlState == Self.tooManyConnections }

    /// `23505`: a unique constraint rejected a row.
    package var isUniqueViolation: Bool { sqlState == "23505" }
    /// `40001` / `40P01`: the transaction lost to a concurrent one and may succeed when run again.
    package var isRetryable: Bool { sqlState == "40001" || sqlState == "40P01" }
    /// Class `08` or no SQLSTATE after a connection-level failure: the connection is gone.
    package var isConnectionFailure: Bool { sqlState?.hasPrefix("08") ?? true }
    /// `42703` / `42P01`: a column or table the statement names doesn't exist (another instance may have migrated
    /// the store).
    package var isUndefinedObject: Bool { sqlState == "42703" || sqlState == "42P01" }
    /// `0A000` "cached plan must not change result type": a prepared statement's result columns changed under it
    /// (a migration altered its table); preparing it again fixes it.
    package var isStalePlan: Bool {
        sqlState == "0A000" && message.hasPrefix("cached plan must not change result type")
    }
    /// A failure of creating what a concurrent transaction created first: a unique violation in the catalog
    /// (`23505`), a duplicate schema, table or object (`42P06`, `42P07`, `42710`), "tuple concurrently updated"
    /// (`XX000`), or a serialization failure or deadlock. The transaction may succeed when run again.
    package var isCatalogRace: Bool {
        isRetryable || ["23505", "42P06", "42P07", "42710"].contains(sqlState ?? "")
            || (sqlState == "XX000" && message.hasPrefix("tuple concurrently updated"))
    }
    /// `SA001`: a Strata SQL function refused input whose Swift semantics it can't reproduce yet.
    package var isUnsupportedText: Bool { sqlState == PostgresFunctions.unsupportedState }
}

extension String {
    var trimmingTrailingNewlines: String {
        var text = self
        while text.last?.isNewline == true { text.removeLast() }
        return text
    }
}
