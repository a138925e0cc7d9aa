import CLibPQ
import Foundation

extension PostgresConnection {
    /// Waits up to `timeout` for notifications on the channels this connection `LISTEN`s to.
    /// - Returns: the payloads received, oldest first (empty when the time ran out).
    /// - Throws: ``PostgresError`` when the connection broke (the server went away or ended the session).
    package func waitForNotifications(timeout: Duration) throws -> [String] {
        var payloads = takeNotifications()
        guard payloads.isEmpty else { return payloads }
        let socket = PQsocket(handle)
        guard socket >= 0 else { throw brokenConnection() }
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(
            timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        let ready = poll(&descriptor, 1, milliseconds)
        if ready < 0, errno != EINTR { throw brokenConnection() }
        guard ready > 0 else { return [] }
        guard PQconsumeInput(handle) == 1, PQstatus(handle) == CONNECTION_OK else { throw brokenConnection() }
        payloads = takeNotifications()
        return payloads
    }

    /// The notifications libpq has read so far.
    private func takeNotifications() -> [String] {
        var payloads: [String] = []
        while let notification = PQnotifies(handle) {
            payloads.append(String(cString: notification.pointee.extra))
            PQfreemem(notification)
        }
        return payloads
    }

    private func brokenConnection() -> PostgresError {
        PostgresError(sqlState: nil, message: String(cString: PQerrorMessage(handle)).trimmingTrailingNewlines)
    }
}
