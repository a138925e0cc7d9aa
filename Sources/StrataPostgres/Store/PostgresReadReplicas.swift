import Foundation
import Strata
import Synchronization

/// The read replicas of a store (``PostgresConfiguration/readReplicas``): a connection pool per standby, and what
/// read-your-writes needs to choose one.
///
/// The store raises ``requiredPosition`` to the primary's WAL position after each of its saves, and after each
/// history read (which is how it learns of other instances' saves). A read goes to a replica only once that replica
/// has replayed WAL up to the required position, so it never shows less than the container itself wrote or was
/// told of; a replica still behind after ``PostgresConfiguration/maximumReplicaWait`` leaves the read to the primary.
final class PostgresReadReplicas: Sendable {
    /// One standby: its pool, the newest WAL position it was seen to have replayed, and until when it is left
    /// alone after failing to answer.
    final class Replica: Sendable {
        let pool: PostgresConnectionPool
        let replayed = Atomic<UInt64>(0)
        /// Reads skip the standby until this uptime (nanoseconds) after it failed to answer.
        private let restsUntil = Atomic<UInt64>(0)

        init(pool: PostgresConnectionPool) {
            self.pool = pool
        }

        /// Whether the standby failed less than a second ago.
        var isResting: Bool { DispatchTime.now().uptimeNanoseconds < restsUntil.load(ordering: .relaxed) }

        /// Leaves the standby alone for a second, so reads don't each wait for a server that is down.
        func rest() {
            restsUntil.store(DispatchTime.now().uptimeNanoseconds + 1_000_000_000, ordering: .relaxed)
        }
    }

    let replicas: [Replica]
    private let maximumWait: Duration
    /// The WAL position reads must reflect: the end of the newest commit this store made or learned of.
    private let required = Atomic<UInt64>(0)
    /// Whether a commit's position could not be read: until the primary is asked again, no replica is known to
    /// have caught up.
    private let positionUnknown = Atomic<Bool>(false)
    private let nextReplica = Atomic<Int>(0)
    /// Reads served by a replica, and by the primary because none had caught up in time or none could be reached.
    let replicaReads = Atomic<Int>(0)
    let primaryReads = Atomic<Int>(0)

    init?(configuration: PostgresConfiguration) {
        guard !configuration.readReplicas.isEmpty else { return nil }
        let settings = configuration.sessionSettings
        replicas = configuration.readReplicas.map { url in
            let conninfo = url.absoluteString
            return Replica(
                pool: PostgresConnectionPool(
                    maximum: configuration.maximumConnections, maximumWait: configuration.maximumConnectionWait
                ) { try PostgresConnection(conninfo: conninfo, settings: settings) })
        }
        maximumWait = configuration.maximumReplicaWait
    }

    /// The WAL position reads must reflect.
    var requiredPosition: UInt64 { required.load(ordering: .acquiring) }

    /// Raises the position reads must reflect to `position` (never lowers it).
    func require(_ position: UInt64) {
        _ = required.max(position, ordering: .acquiringAndReleasing)
    }

    /// Raises the required position to the primary's current WAL position, read on `connection` (a primary's).
    /// When it can't be read, reads go to the primary until a later call reads it.
    func requireCurrentPosition(of connection: PostgresConnection) {
        guard let result = try? connection.query("SELECT pg_current_wal_lsn()::text"), result.count > 0,
            let position = result.text(row: 0, column: 0).flatMap(Self.position)
        else {
            positionUnknown.store(true, ordering: .releasing)
            return
        }
        require(position)
        positionUnknown.store(false, ordering: .releasing)
    }

    /// Whether the required position is unknown (a commit's could not be read), so reads must go to the primary,
    /// which reads it again.
    var isPositionUnknown: Bool { positionUnknown.load(ordering: .acquiring) }

    /// A replica that has replayed the required position, waiting up to the configured bound for one to catch up;
    /// `nil` when none has in time (or none could be asked), so the read goes to the primary.
    func caughtUpReplica() -> Replica? {
        guard !isPositionUnknown else { return nil }
        let position = requiredPosition
        let start = nextReplica.wrappingAdd(1, ordering: .relaxed).oldValue
        let ordered = replicas.indices.map { replicas[(start + $0) % replicas.count] }.filter { !$0.isResting }
        if let ready = ordered.first(where: { $0.replayed.load(ordering: .acquiring) >= position }) { return ready }
        let deadline = ContinuousClock.now + maximumWait
        var pause = Duration.microseconds(500)
        var answering = ordered
        while !answering.isEmpty {
            var stillAnswering: [Replica] = []
            for replica in answering {
                do {
                    if try refreshReplayed(replica) >= position { return replica }
                    stillAnswering.append(replica)
                } catch {
                    replica.rest()
                }
            }
            answering = stillAnswering
            guard !answering.isEmpty, ContinuousClock.now + pause < deadline else { return nil }
            Thread.sleep(forTimeInterval: Double(pause.components.attoseconds) / 1e18)
            pause = min(pause * 2, .milliseconds(20))
        }
        return nil
    }

    /// Reads the position `replica` has replayed and remembers it.
    private func refreshReplayed(_ replica: Replica) throws -> UInt64 {
        let result = try replica.pool.withConnection { try $0.query("SELECT pg_last_wal_replay_lsn()::text") }
        guard result.count > 0, let position = result.text(row: 0, column: 0).flatMap(Self.position) else { return 0 }
        return replica.replayed.max(position, ordering: .acquiringAndReleasing).newValue
    }

    /// Closes every replica's pool.
    func close() {
        for replica in replicas { replica.pool.close() }
    }

    /// A WAL position from PostgreSQL's `pg_lsn` text (`16/B374D848`: the high and low 32 bits in hexadecimal).
    static func position(_ text: String) -> UInt64? {
        let halves = text.split(separator: "/")
        guard halves.count == 2, let high = UInt64(halves[0], radix: 16), let low = UInt64(halves[1], radix: 16),
            high <= UInt64(UInt32.max), low <= UInt64(UInt32.max)
        else { return nil }
        return high << 32 | low
    }
}
