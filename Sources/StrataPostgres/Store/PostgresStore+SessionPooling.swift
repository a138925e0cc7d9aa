import Foundation
import Strata
import Synchronization

/// Refuses a connection pooler that doesn't keep each client on one server session.
///
/// Strata keeps state in every connection's session: the settings each connection applies first (the
/// `search_path` naming the store's schema, float output, the statement timeout), the statements it prepared, and
/// its change listener's `LISTEN`. A pooler in session mode (PgBouncer's `pool_mode = session`) keeps a client on
/// one server session for as long as it stays connected, so all of that holds. In transaction or statement mode the
/// client's next transaction may run in another session, where none of it exists: statements would read another
/// schema's tables, prepared statements would be missing, and notifications of other instances' saves would be
/// lost.
///
/// An open with ``PostgresConfiguration/ChangeNotification/listen`` finds this out before the store is used: a
/// connection of its own `LISTEN`s on a channel no one else uses, a pooled connection notifies it, and the
/// notification must arrive. Through a session the server delivers it at once; through a transaction pooler the
/// listening session is no longer attached to the client once its `LISTEN` has ended, so it never does. A server
/// that passed is not checked again in the same process (about 2 ms and one more session per open otherwise).
extension PostgresStore {
    /// How long an open waits for the check's notification before it concludes sessions aren't kept.
    static let sessionCheckWait: Duration = .seconds(5)

    /// The connection URLs whose sessions were found kept in this process.
    private static let serversKeepingSessions = Mutex<Set<String>>([])

    /// Checks that the server keeps this store's sessions, as described above.
    /// - Throws: `StrataError.storeOpenFailed` naming transaction pooling when the notification doesn't arrive, or
    ///   the connection's own error when the server can't be reached.
    static func checkSessionsAreKept(configuration: PostgresConfiguration, pool: PostgresConnectionPool) throws {
        let server = configuration.url.absoluteString
        guard !serversKeepingSessions.withLock({ $0.contains(server) }) else { return }
        let channel = "strata.session-check." + UUID().uuidString.prefix(8).lowercased()
        do {
            // Two of the pool's own connections when it may hold two: the open costs a round trip or two rather
            // than a session more, and the pool keeps both for the contexts.
            let received: Bool
            if configuration.maximumConnections >= 2 {
                received = try pool.withConnection { listener in
                    try notificationArrives(on: channel, at: listener) {
                        try pool.withConnection { try notify(channel, from: $0) }
                    }
                }
            } else {
                let listener = try PostgresConnection(
                    conninfo: configuration.url.absoluteString, settings: configuration.sessionSettings)
                received = try notificationArrives(on: channel, at: listener) {
                    try pool.withConnection { try notify(channel, from: $0) }
                }
            }
            if received {
                serversKeepingSessions.withLock { _ = $0.insert(server) }
                return
            }
        } catch let error as PostgresError {
            throw StrataError.storeOpenFailed(path: configuration.redactedURL, reason: error.description)
        }
        throw StrataError.storeOpenFailed(
            path: configuration.redactedURL,
            reason:
                "the server doesn't keep a client's session: a LISTEN received no notification within 5 s, as happens "
                + "behind a connection pooler in transaction or statement mode (PgBouncer's pool_mode = transaction). "
                + "Strata keeps settings, prepared statements and LISTEN in each session: use pool_mode = session, "
                + "or connect to PostgreSQL directly")
    }

    /// Whether `listener`, listening on `channel`, receives the notification `send` sends within ``sessionCheckWait``;
    /// the listener stops listening either way.
    private static func notificationArrives(
        on channel: String, at listener: PostgresConnection, after send: () throws -> Void
    ) throws -> Bool {
        let quoted = PostgreSQLDialect().quote(identifier: channel)
        try listener.execute("LISTEN \(quoted)")
        defer { try? listener.execute("UNLISTEN \(quoted)") }
        try send()
        let deadline = ContinuousClock.now + Self.sessionCheckWait
        while ContinuousClock.now < deadline {
            if try !listener.waitForNotifications(timeout: .milliseconds(100)).isEmpty { return true }
        }
        return false
    }

    private static func notify(_ channel: String, from connection: PostgresConnection) throws {
        _ = try connection.query("SELECT pg_notify(\(bind: .text(channel)), 'check')")
    }
}
