import Foundation

extension SQLiteStore {
    /// Closes the store: stops its commit watcher (waiting for it with `waitingForWatchers`), waits for the fetch or
    /// save in progress, moves everything the `-wal` file holds into the database file, and closes the connection,
    /// so a copy of the file has every row. Later operations throw `StrataError.storeClosed`. Closing twice does
    /// nothing.
    package func close(waitingForWatchers: Bool) {
        watchers.stop(waiting: waitingForWatchers)
        lock.lock()
        defer { lock.unlock() }
        guard let connection = openConnection else { return }
        openConnection = nil
        if path != nil, !isReadOnly {
            // A reader elsewhere can keep part of the log; what it keeps is moved by the last connection to close.
            _ = try? connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        }
        // The connection closes when released: nothing else holds it.
    }

    /// Stops the watcher and checkpoints the log into the file; the connection stays for the models still
    /// referenced, and closes with the store.
    package func containerWasReleased() {
        watchers.stop(waiting: false)
        guard path != nil, !isReadOnly else { return }
        _ = try? withConnection { try $0.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
    }

    /// Whether the store was closed.
    package var isClosed: Bool {
        lock.lock()
        defer { lock.unlock() }
        return openConnection == nil
    }
}
