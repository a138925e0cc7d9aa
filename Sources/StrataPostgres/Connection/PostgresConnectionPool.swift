import Foundation
import Strata

/// A bounded set of connections to one database, shared by every context of a container. A caller has a
/// connection to itself from ``withConnection(_:)`` until its body returns, so contexts in parallel tasks never
/// share a connection mid-transaction; callers beyond the limit wait for one to come back, up to a bound, then fail
/// with an error naming the pool's size.
package final class PostgresConnectionPool: @unchecked Sendable {
    // `@unchecked` because `idle` and `open` are only touched while `condition` is locked, and a connection is
    // used by one caller at a time.
    private let condition = NSCondition()
    private var idle: [PostgresConnection] = []
    private var open = 0
    private let maximum: Int
    /// How long a caller waits for a busy pool before failing.
    private let maximumWait: Duration
    private let connect: () throws -> PostgresConnection
    /// The one connection of a pool over a migrating connection, handed to every caller in turn.
    private let pinned: PostgresConnection?
    /// Whether ``close()`` was called: no connection is handed out or made any more.
    private var isClosed = false

    /// What ``withConnection(_:)`` throws once the pool is closed.
    package struct Closed: Error {}

    /// A pool of at most `maximum` connections (at least one), each made by `connect`, whose callers wait up to
    /// `maximumWait` for a connection when all are busy.
    package init(maximum: Int, maximumWait: Duration = .seconds(30), connect: @escaping () throws -> PostgresConnection)
    {
        self.maximum = max(1, maximum)
        self.maximumWait = maximumWait
        self.connect = connect
        self.pinned = nil
    }

    /// A pool of one connection already open (and in a transaction): a custom migration stage's store, whose work
    /// commits with the migration. Used from the migrating thread only.
    package init(pinned connection: PostgresConnection) {
        self.maximum = 1
        self.maximumWait = .zero
        self.connect = { connection }
        self.pinned = connection
    }

    /// Runs `body` with a connection of its own. A connection that broke during `body` is closed rather than
    /// returned, so the next caller connects afresh (a restarted server is reached again without any call).
    /// - Throws: what `body` throws, or ``PostgresError``: when no connection can be made, or (SQLSTATE `53300`,
    ///   ``PostgresError/isOutOfConnections``) when every connection stayed busy for the pool's wait bound.
    package func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        if let pinned { return try body(pinned) }
        let connection = try acquire()
        defer { release(connection) }
        return try body(connection)
    }

    /// How many connections the pool has open now, idle or handed out.
    package var openConnectionCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return pinned == nil ? open : 1
    }

    private func acquire() throws -> PostgresConnection {
        // Timed on the monotonic clock: a wall-clock deadline would end the wait early, or late, when the system
        // clock is stepped.
        let deadline = ContinuousClock.now + maximumWait
        condition.lock()
        while true {
            if isClosed {
                condition.unlock()
                throw Closed()
            }
            while let connection = idle.popLast() {
                // A connection idle across a server restart is closed by now: noticed here, not by its next query.
                if connection.isAlive {
                    condition.unlock()
                    return connection
                }
                open -= 1
            }
            if open < maximum { break }
            if !condition.wait(until: Self.date(for: deadline)), ContinuousClock.now >= deadline, idle.isEmpty,
                open >= maximum
            {
                condition.unlock()
                throw PostgresError.poolExhausted(size: maximum, waited: maximumWait)
            }
        }
        open += 1
        condition.unlock()
        do {
            return try connect()
        } catch {
            condition.lock()
            open -= 1
            condition.signal()
            condition.unlock()
            throw error
        }
    }

    /// The wall-clock date `NSCondition` waits until, for `deadline` on the monotonic clock, worked out afresh for
    /// each wait so that a stepped system clock shortens or lengthens one wait only, never the whole.
    private static func date(for deadline: ContinuousClock.Instant) -> Date {
        let remaining = ContinuousClock.now.duration(to: deadline)
        let seconds = Double(remaining.components.seconds) + Double(remaining.components.attoseconds) / 1e18
        return Date(timeIntervalSinceNow: max(seconds, 0))
    }

    /// Closes the pool: callers waiting for a connection get ``Closed``, the calls in progress finish (this waits
    /// for them, at most `timeout`), then every connection is closed. Closing twice does nothing.
    package func close(timeout: TimeInterval = 30) {
        guard pinned == nil else { return }
        condition.lock()
        isClosed = true
        condition.broadcast()
        let deadline = ContinuousClock.now + .seconds(timeout)
        while open > idle.count, ContinuousClock.now < deadline {
            _ = condition.wait(until: Self.date(for: deadline))
        }
        let closing = idle
        idle.removeAll()
        open -= closing.count
        condition.unlock()
        // Each connection ends its session (`PQfinish`) when released here.
        _ = closing
    }

    private func release(_ connection: PostgresConnection) {
        condition.lock()
        if connection.isHealthy && !connection.isInTransaction && !isClosed {
            idle.append(connection)
        } else {
            open -= 1
            if !connection.isHealthy {
                StrataLog.log(
                    .notice, "dropped a broken PostgreSQL connection; the next operation opens a new one",
                    category: "postgres")
            }
        }
        condition.signal()
        condition.unlock()
    }
}
