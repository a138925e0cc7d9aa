import Foundation
import StrataPostgres

/// A primary and a streaming standby of it, each a ``ThrowawayPostgresCluster``: replication is synchronous
/// (`synchronous_standby_names = '*'`, `synchronous_commit = on`), so a commit the primary acknowledged is on the
/// standby too. ``url`` names both servers, the primary first, with `target_session_attrs=read-write`, so libpq
/// connects to whichever accepts writes: the primary, or the standby once it is promoted.
package final class ReplicatedPostgresClusters: Sendable {
    package let primary: ThrowawayPostgresCluster
    package let standby: ThrowawayPostgresCluster

    private init(primary: ThrowawayPostgresCluster, standby: ThrowawayPostgresCluster) {
        self.primary = primary
        self.standby = standby
    }

    /// Starts the primary, copies it into the standby with `pg_basebackup -R` and starts that; `nil` when no
    /// PostgreSQL server binaries are installed. With `standbyApplyDelay`, the standby replays each commit only that
    /// long after it was made (`recovery_min_apply_delay`): a replica deliberately behind.
    package static func make(standbyApplyDelay: Duration? = nil) async throws -> ReplicatedPostgresClusters? {
        guard
            let primary = try await ThrowawayPostgresCluster.make(settings: [
                "wal_level = replica", "max_wal_senders = 4", "synchronous_commit = on",
                "synchronous_standby_names = '*'",
                "max_connections = 60",
            ])
        else { return nil }
        // A promoted standby has no standby of its own: it must not wait for one at every commit.
        var standbySettings = ["synchronous_standby_names = ''"]
        if let standbyApplyDelay {
            let milliseconds =
                standbyApplyDelay.components.seconds * 1000 + standbyApplyDelay.components.attoseconds
                / 1_000_000_000_000_000
            standbySettings.append("recovery_min_apply_delay = '\(milliseconds)ms'")
        }
        let standby = try await ThrowawayPostgresCluster.standby(of: primary, settings: standbySettings)
        let clusters = ReplicatedPostgresClusters(primary: primary, standby: standby)
        try await clusters.waitUntilStreaming()
        return clusters
    }

    /// The libpq URI of both servers, the primary first, with `target_session_attrs=read-write` and a short
    /// `connect_timeout` (hosts and ports as parameters: Foundation's `URL` can't hold `host:port,host:port`).
    package var url: URL {
        URL(
            string: "postgresql://postgres@/postgres?host=127.0.0.1,127.0.0.1&port=\(primary.port),\(standby.port)"
                + "&target_session_attrs=read-write&connect_timeout=2")!
    }

    /// Waits until the primary counts the standby as its synchronous standby, so commits wait for it.
    private func waitUntilStreaming() async throws {
        let connection = try PostgresConnection(conninfo: primary.url().absoluteString)
        for _ in 0..<200 {
            let state = try connection.query("SELECT sync_state FROM pg_stat_replication", [])
            if state.count > 0, state.text(row: 0, column: 0) == "sync" { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw StandbyNotStreaming()
    }

    private struct StandbyNotStreaming: Error, CustomStringConvertible {
        var description: String { "the standby did not become the primary's synchronous standby within 10 s" }
    }
}
