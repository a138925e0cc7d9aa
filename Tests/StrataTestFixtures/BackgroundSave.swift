import Foundation
import Strata
import StrataTestSupport
import Synchronization

@testable import StrataPostgres

/// A save running on a thread of its own, for tests that block it on a row lock and act meanwhile: `change`
/// edits a fresh context of the container, which is then saved; ``wait()`` returns the save's error, if any. The
/// waits are on threads of their own, leaving the cooperative pool to the other tests.
final class BackgroundSave: Sendable {
    private let outcome = Mutex<(any Error)?>(nil)
    private let done = DispatchSemaphore(value: 0)

    init(_ container: ModelContainer, change: @escaping @Sendable (ModelContext) throws -> Void) {
        let thread = Thread { [self] in
            do {
                let context = ModelContext(container)
                try change(context)
                try context.save()
            } catch {
                outcome.withLock { $0 = error }
            }
            done.signal()
        }
        thread.start()
    }

    /// Waits for the save to end; its error, or `nil` when it saved.
    func wait() async -> (any Error)? {
        await onOwnThread { [done] in done.wait() }
        return outcome.withLock { $0 }
    }
}

extension TestStore {
    /// A PostgreSQL session of its own on the store's schema, in a transaction holding the lock of the `Dossier`
    /// row titled `title` (its rating set to 7), so a save updating that row waits for it.
    func sessionLocking(dossier title: String) throws -> PostgresConnection {
        let url = try PostgresTestServer.requiredURL()
        let session = try PostgresConnection(
            conninfo: url.absoluteString, settings: ["SET search_path TO \"\(databaseSchema)\""])
        try session.execute("SET deadlock_timeout = '20s'")
        try session.execute("BEGIN")
        try session.query("UPDATE \"Dossier\" SET \"rating\" = 7 WHERE \"title\" = $1", [.text(title)])
        return session
    }
}

extension PostgresConnection {
    /// The backend waiting for a lock this session holds, once one is (polled for up to ten seconds); `nil` if none
    /// came. Reads `pg_locks`, which a transaction doesn't cache as it does `pg_stat_activity`. The polling runs
    /// on a thread of its own, so it keeps its pace when the cooperative pool is busy.
    nonisolated(nonsending) func backendBlockedByThisSession() async throws -> Int64? {
        // The test awaits the thread: one thread at a time uses the session.
        nonisolated(unsafe) let session = self
        return try await onOwnThread { try session.pollForBackendBlockedByThisSession() }
    }

    /// ``backendBlockedByThisSession()``, blocking the calling thread: for a thread of a test's own that must act
    /// as soon as the backend waits.
    func pollForBackendBlockedByThisSession() throws -> Int64? {
        for _ in 0..<500 {
            let rows = try query(
                "SELECT DISTINCT pid FROM pg_locks WHERE NOT granted AND pg_backend_pid() = ANY (pg_blocking_pids(pid))",
                [])
            if rows.count > 0 { return rows.int64(row: 0, column: 0) }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return nil
    }
}
