import Foundation
import Synchronization

/// The database files this process has open through ``SQLiteConnection``, and whether a file about to be opened
/// was left behind by a process that stopped without closing it.
///
/// A connection that closes last checkpoints the write-ahead log and deletes it, so a log with frames in it means
/// either another connection has the database open now or the last one never closed (a crash, a kill, a power
/// cut). SQLite recovers such a log by itself; Strata runs its full integrity check only then, so an ordinary
/// open costs the same whatever the file's size.
enum SQLiteOpenFiles {
    /// A file, by device and inode, so two paths to one file count as one.
    struct FileID: Hashable {
        let device: UInt64
        let inode: UInt64
    }

    /// How many connections of this process have each file open.
    private static let openCounts = Mutex<[FileID: Int]>([:])

    /// The byte of the `-shm` file every connection with the WAL index open holds a shared lock on, for as long
    /// as it has it open (SQLite's unix VFS: `UNIX_SHM_DMS`).
    private static let sharedMemoryDeadManByte: Int = 128

    /// Registers a connection about to open the file at `path` and tells whether the file was left by an unclean
    /// shutdown: a write-ahead log with frames in it that no other connection, in this process or another, has
    /// open. `open` runs while the registry is locked, so a concurrent opener in this process sees this one.
    ///
    /// - Returns: the registered file (pass it to ``close(_:)`` when the connection closes, `nil` when the file
    ///   couldn't be identified) and whether it needs recovery.
    static func opening<Handle>(
        _ path: String, _ open: () throws(SQLiteError) -> Handle
    ) throws(SQLiteError) -> (handle: Handle, file: FileID?, leftUnclosed: Bool) {
        try openCounts.withLock { counts throws(SQLiteError) in
            var leftUnclosed = false
            if let existing = fileID(of: path), counts[existing, default: 0] == 0 {
                leftUnclosed = hasFrames(walOf: path) && !isHeldByAnotherProcess(sharedMemoryOf: path)
            }
            let handle = try open()
            // SQLite creates a missing file when it opens it, so the file is identified afterwards.
            let file = fileID(of: path)
            if let file { counts[file, default: 0] += 1 }
            return (handle, file, leftUnclosed)
        }
    }

    /// Records that a connection registered by ``opening(_:_:)`` closed.
    static func close(_ file: FileID) {
        openCounts.withLock { counts in
            let remaining = counts[file, default: 1] - 1
            counts[file] = remaining > 0 ? remaining : nil
        }
    }

    private static func fileID(of path: String) -> FileID? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return FileID(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }

    /// Whether the write-ahead log beside `path` holds more than its 32-byte header.
    static func hasFrames(walOf path: String) -> Bool {
        var status = stat()
        return stat(path + "-wal", &status) == 0 && status.st_size > 32
    }

    /// Whether another process holds the WAL index's shared lock, that is, has the database open.
    ///
    /// Only called while no connection of this process has the file open: closing a descriptor drops every POSIX
    /// lock the process holds on that file, SQLite's included.
    private static func isHeldByAnotherProcess(sharedMemoryOf path: String) -> Bool {
        let descriptor = open(path + "-shm", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { _ = Glibc.close(descriptor) }
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = off_t(sharedMemoryDeadManByte)
        lock.l_len = 1
        guard fcntl(descriptor, F_GETLK, &lock) == 0 else {
            // Can't tell: treat the file as abandoned, which costs a check rather than skipping one.
            return false
        }
        return lock.l_type != Int16(F_UNLCK)
    }
}
