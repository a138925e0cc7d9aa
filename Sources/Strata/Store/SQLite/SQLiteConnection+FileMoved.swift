import CSQLite

extension SQLiteConnection {
    /// Whether the database file this connection opened is no longer at its path: deleted, renamed, or replaced by
    /// another file. An open connection keeps writing to the file it opened, so writes made then would be lost to
    /// every later open of the path.
    package var fileHasMoved: Bool {
        guard case .file = location else { return false }
        var moved: Int32 = 0
        guard sqlite3_file_control(handle, "main", SQLITE_FCNTL_HAS_MOVED, &moved) == SQLITE_OK else { return false }
        return moved != 0
    }
}
