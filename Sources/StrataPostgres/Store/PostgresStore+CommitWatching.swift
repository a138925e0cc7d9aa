import Foundation
import Strata

/// How a PostgreSQL store learns of other instances' saves (`PostgresConfiguration.changeNotification`).
///
/// With `.listen`, every save sends `NOTIFY` on the store's channel (one per database schema) inside its
/// transaction — PostgreSQL delivers it at commit, and drops it with a rollback — carrying the identifier of the
/// save's history transaction. A dedicated connection (not one of the pool's, which are handed to fetches and
/// saves) `LISTEN`s while anything observes; when it drops it reconnects by itself (50 ms, doubling to 1 s
/// between attempts) and reports `.resumed`, so the reader catches up from its last transaction. With
/// `.polling(interval:)` saves send nothing and a thread reads the newest history identifier every interval.
extension PostgresStore {
    /// The channel the store's saves notify: one per database schema, within PostgreSQL's 63-byte identifiers.
    var notificationChannel: String {
        let channel = "strata." + configuration.databaseSchema
        guard channel.utf8.count > 63 else { return channel }
        // A stable FNV-1a hash of the schema's name, where the name is too long to spell out.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in configuration.databaseSchema.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return "strata." + String(hash, radix: 16)
    }

    /// The history transactions this store wrote while watched (noted in ``commitAnnouncement(of:)``).
    package var writtenTransactions: StoreWrittenTransactions? { ownTransactions }

    /// The statement telling other instances that the transaction recording history `transaction` commits (in
    /// `.listen` mode; `nil` when polling), for the save to run in its transaction; notes the transaction as this
    /// store's own.
    func commitAnnouncement(of transaction: Int64) -> PostgresConnection.PipelinedStatement? {
        // Before commit: nobody can read the transaction before it commits, and identifiers are never reused.
        ownTransactions.note(transaction)
        guard configuration.changeNotification == .listen else { return nil }
        return .init("SELECT pg_notify(\(bind: .text(notificationChannel)), \(bind: .text(String(transaction))))")
    }

    /// Starts the listener or the poller `changeNotification` chooses, on a thread of its own, until the observer
    /// stops watching.
    /// - Returns: `true`: every PostgreSQL store can be written by other instances.
    package func watchCommits(reportingTo observer: any StoreCommitObserver) -> Bool {
        guard watchers.begin() else { return false }
        ownTransactions.beginTracking()
        let thread: Thread
        switch configuration.changeNotification {
        case .listen:
            thread = Thread { [self] in
                defer {
                    ownTransactions.endTracking()
                    watchers.end()
                }
                listen(reportingTo: observer)
            }
        case .polling(let interval):
            thread = Thread { [self] in
                defer {
                    ownTransactions.endTracking()
                    watchers.end()
                }
                poll(every: interval, reportingTo: observer)
            }
        }
        thread.name = "Strata.PostgresCommitWatcher"
        thread.start()
        return true
    }

    /// How long a wait for notifications lasts before the listener checks whether it should stop.
    private static let listenerCheckInterval: Duration = .milliseconds(200)

    /// `LISTEN`s on a connection of its own until the observer stops watching, reconnecting when it drops.
    private func listen(reportingTo observer: any StoreCommitObserver) {
        StoreWatchers.nameCurrentThread("strata-postgres")
        var connection: PostgresConnection?
        var retryDelay = 0.05
        while observer.keepsWatching, !watchers.isStopping {
            guard let listening = connection else {
                do {
                    let opened = try PostgresConnection(
                        conninfo: configuration.url.absoluteString, settings: configuration.sessionSettings)
                    try opened.execute("LISTEN \(writer.dialect.quote(identifier: notificationChannel))")
                    connection = opened
                    retryDelay = 0.05
                    observer.storeDidCommit(.resumed())
                } catch {
                    StrataLog.log(
                        .notice, "could not open the LISTEN connection; trying again",
                        metadata: [
                            "delay": "\(Int(retryDelay * 1000)) ms", "reason": "\(error)",
                        ], category: "postgres")
                    Thread.sleep(forTimeInterval: retryDelay)
                    retryDelay = min(retryDelay * 2, 1)
                }
                continue
            }
            do {
                let payloads = try listening.waitForNotifications(timeout: Self.listenerCheckInterval)
                if let newest = payloads.compactMap({ Int64($0) }).max() {
                    observer.storeDidCommit(.historyAdvanced(newest: newest))
                }
            } catch {
                StrataLog.log(
                    .notice, "the LISTEN connection dropped; reconnecting", metadata: ["reason": "\(error)"],
                    category: "postgres")
                connection = nil
            }
        }
    }

    /// Reads the newest history transaction every `interval` until the observer stops watching.
    private func poll(every interval: Duration, reportingTo observer: any StoreCommitObserver) {
        StoreWatchers.nameCurrentThread("strata-postgres")
        let seconds = Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18
        observer.storeDidCommit(.resumed())
        while true {
            Thread.sleep(forTimeInterval: seconds)
            guard observer.keepsWatching, !watchers.isStopping else { return }
            // A failed read (the server unreachable for a moment) is retried next time.
            let newest = try? withConnection("read the newest history transaction") { connection in
                try connection.query(HistoryTables.newestTransactionQuery)
            }
            guard let newest, newest.count > 0, newest.int64(row: 0, column: 0) > 0 else { continue }
            observer.storeDidCommit(.historyAdvanced(newest: newest.int64(row: 0, column: 0)))
        }
    }
}
