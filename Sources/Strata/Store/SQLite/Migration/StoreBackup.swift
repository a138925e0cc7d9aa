import Foundation

/// The copy of a store written before it is migrated: `<file>.backup-<version>` (or `-<fingerprint hash>` for an
/// unversioned store), a complete store the old models open.
enum StoreBackup {
    /// Writes the backup with `VACUUM INTO`, which reads one consistent snapshot of the database, committed WAL
    /// frames included, so the copy needs no checkpoint and never sees a half-written transaction. The copy goes to a
    /// file of its own (`<file>.partial-backup-<UUID>`) until ``keep(_:storePath:stored:)`` or ``discard(_:)``:
    /// connections opening the store at once each write one, and only the one that migrates keeps it. Returns its path.
    ///
    /// - Throws: `StrataError.storeFailure` when the copy can't be written; the store is then not migrated.
    static func write(of connection: SQLiteConnection, storePath: String) throws -> String {
        let path = storePath + ".partial-backup-" + UUID().uuidString
        try translatingErrors("write a backup of the store to \(path) before migrating it") {
            try connection.run("VACUUM INTO ?", [.text(path)])
        }
        return path
    }

    /// Gives the copy at `partialPath` its name, `<file>.backup-<version>`, replacing an older backup of that name.
    /// Only the connection that migrated calls it, so its copy holds the store as it was before this migration.
    ///
    /// - Throws: `StrataError.storeFailure` when the file can't be renamed (the store is migrated by then).
    static func keep(_ partialPath: String, storePath: String, stored: StoredSchema) throws {
        let path = storePath + ".backup-" + suffix(for: stored)
        guard rename(partialPath, path) == 0 else {
            let reason = String(cString: strerror(errno))
            discard(partialPath)
            throw StrataError.storeFailure(
                operation: "name the backup \(path) written before migrating the store", reason: reason)
        }
    }

    /// Removes a copy that isn't kept: the store wasn't migrated by this connection.
    static func discard(_ partialPath: String) {
        try? FileManager.default.removeItem(atPath: partialPath)
    }

    /// The store's version, or a hash of its tables' definitions when it has none.
    static func suffix(for stored: StoredSchema) -> String {
        if let version = stored.version { return version.description }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for entity in stored.entities {
            for byte in (entity.name + entity.definition).utf8 {
                hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
            }
        }
        return String(hash, radix: 16)
    }
}
