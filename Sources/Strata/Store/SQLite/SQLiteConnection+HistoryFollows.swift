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

    /// Notes that this connection's save, with its history transaction, has just committed: until anything else
    /// commits on the database, that transaction's row stays the newest (``historyFollowsOwnSave``).
    func noteHistorySaveCommitted() {
        counterAfterHistorySave = dataChangeCounter
    }

    /// Whether, inside a write transaction, nothing has committed on the database since this connection's last
    /// save noted by ``noteHistorySaveCommitted()`` — no save, history deletion or erase, here or elsewhere — so
    /// that save's transaction row is still the newest, above every identifier given before it.
    var historyFollowsOwnSave: Bool {
        guard let saved = counterAfterHistorySave else { return false }
        return dataChangeCounter == saved
    }

    /// Forgets the last save's note: the next save computes its transaction identifier in full.
    func forgetHistorySave() {
        counterAfterHistorySave = nil
    }
}
