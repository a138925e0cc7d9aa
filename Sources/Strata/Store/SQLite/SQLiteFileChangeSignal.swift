#if canImport(Glibc)
import Glibc
#endif

/// Wakes a SQLite commit watcher when a store's files are written, so it reads the data version right after
/// another connection's commit instead of at its next poll.
///
/// On Linux it is an inotify descriptor on the store's *directory*, filtered to the store's own names (the file,
/// `-wal`, `-journal`): watching the directory follows a `-wal` file that is deleted and created again as
/// connections close and open, and sees rollback-journal writers, which write the file itself. A write is only a
/// hint: a WAL commit becomes visible when the writer updates the shared-memory index, just after its last frame is
/// written, and mapped memory raises no event. So the watcher reads the version at each hint, once more shortly after
/// a hint that found nothing, and still at every poll interval: the poll catches what inotify can't see (writers on
/// another machine of a network file system) and is all there is where inotify doesn't exist.
package final class SQLiteFileChangeSignal: Sendable {
    #if canImport(Glibc)
    private let descriptor: Int32
    private let names: Set<String>
    #endif

    /// A signal for the files of the store at `path`, or `nil` where the platform has no file events or the
    /// directory can't be watched (out of inotify watches, say): the watcher then polls alone.
    package init?(storePath path: String) {
        #if canImport(Glibc)
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let file = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        let mask = UInt32(IN_MODIFY | IN_CREATE | IN_MOVED_TO)
        guard inotify_add_watch(descriptor, directory, mask) >= 0 else {
            close(descriptor)
            return nil
        }
        self.descriptor = descriptor
        names = [file, file + "-wal", file + "-journal"]
        #else
        return nil
        #endif
    }

    deinit {
        #if canImport(Glibc)
        close(descriptor)
        #endif
    }

    /// Waits up to `timeout` for a write to one of the store's files; writes to other files of the directory are
    /// consumed without ending the wait.
    /// - Returns: whether one was written (every event waiting is consumed); `false` when the time ran out.
    package func wait(timeout: Duration) -> Bool {
        #if canImport(Glibc)
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while true {
            let remaining = clock.now.duration(to: deadline)
            guard remaining > .zero else { return false }
            let (seconds, attoseconds) = remaining.components
            var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = seconds * 1_000 + attoseconds / 1_000_000_000_000_000
            let ready: Int32
            if milliseconds > 0 {
                ready = poll(&request, 1, Int32(clamping: milliseconds))
            } else {
                // Under a millisecond, `poll`'s unit: sleep the rest, then take what came meanwhile.
                var rest = timespec(tv_sec: 0, tv_nsec: Int(attoseconds / 1_000_000_000))
                nanosleep(&rest, nil)
                ready = poll(&request, 1, 0)
            }
            if ready < 0, errno != EINTR {
                // A descriptor that can't be polled: the time is waited out, so the watcher keeps its pace.
                var rest = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
                nanosleep(&rest, nil)
                return false
            }
            if ready > 0, drainEvents() { return true }
        }
        #else
        return false
        #endif
    }

    #if canImport(Glibc)
    /// Reads every waiting event; whether one names a file of the store.
    private func drainEvents() -> Bool {
        withUnsafeTemporaryAllocation(byteCount: 4_096, alignment: 8) { buffer in
            guard let base = buffer.baseAddress else { return false }
            var named = false
            // Each event: its header (descriptor, mask, cookie, name length) and the name, padded with NULs.
            let headerSize = MemoryLayout<inotify_event>.size
            while true {
                let count = read(descriptor, base, buffer.count)
                guard count > 0 else { return named }
                var offset = 0
                while offset + headerSize <= count {
                    let nameLength = Int(buffer.load(fromByteOffset: offset + 12, as: UInt32.self))
                    if !named, nameLength > 0 {
                        let name = base.advanced(by: offset + headerSize)
                        named = names.contains(String(cString: name.assumingMemoryBound(to: CChar.self)))
                    }
                    offset += headerSize + nameLength
                }
            }
        }
    }
    #endif
}
