import CSQLite

extension SQLiteConnection {
    /// SQLite's data version of the main database (`SQLITE_FCNTL_DATA_VERSION`): it moves at every commit, this
    /// connection's and every other's (seen when this connection next starts a transaction). `nil` where SQLite
    /// can't tell.
    var dataChangeCounter: UInt32? {
        var counter: UInt32 = 0
        guard sqlite3_file_control(handle, "main", SQLITE_FCNTL_DATA_VERSION, &counter) == SQLITE_OK else {
            return nil
        }
        return counter
    }

    /// Notes that this connection's save has just committed: until anything else commits on the database, what
    /// that save checked and wrote is still the database's latest state (``nothingCommittedSinceOwnSave``).
    func noteOwnSaveCommitted() {
        counterAfterOwnSave = dataChangeCounter
    }

    /// Whether, inside a write transaction, nothing has committed on the database since this connection's last
    /// save noted by ``noteOwnSaveCommitted()`` — no save, migration, history deletion or erase, here or elsewhere:
    /// the tables are those that save checked, and its history transaction row is still the newest, above every
    /// identifier given before it.
    var nothingCommittedSinceOwnSave: Bool {
        guard let saved = counterAfterOwnSave else { return false }
        return dataChangeCounter == saved
    }

    /// Forgets the last save's note: the next save checks the tables and computes its transaction identifier in
    /// full.
    func forgetOwnSave() {
        counterAfterOwnSave = nil
    }
}
