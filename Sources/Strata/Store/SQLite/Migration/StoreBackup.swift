import Foundation

/// The copy of a store written before it is migrated: `<file>.backup-<version>` (or `-<fingerprint hash>` for an
/// unversioned store), a complete store the old models open.
enum StoreBackup {
    /// Writes the backup with `VACUUM INTO`, which reads one consistent snapshot of the database, committed WAL
    /// frames included, so the copy needs no checkpoint and never sees a half-written transaction. Returns its path.
    ///
    /// - Throws: `StrataError.storeFailure` when the copy can't be written; the store is then not migrated.
    static func write(of connection: SQLiteConnection, storePath: String, stored: StoredSchema) throws -> String {
        let path = storePath + ".backup-" + suffix(for: stored)
        try? FileManager.default.removeItem(atPath: path)
        try translatingErrors("write a backup of the store to \(path) before migrating it") {
            try connection.run("VACUUM INTO ?", [.text(path)])
        }
        return path
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
