import Foundation

/// The commit watcher threads of one store, so closing the store can stop them and wait until they are gone (a
/// server shutting down leaves no thread or connection behind).
package final class StoreWatchers: @unchecked Sendable {
    // `@unchecked` because `running` and `isStopped` are only touched while `condition` is locked.
    private let condition = NSCondition()
    private var running = 0
    private var isStopped = false

    package init() {}

    /// Counts a watcher starting; `false` once the store is closing, when no watcher may start.
    package func begin() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !isStopped else { return false }
        running += 1
        return true
    }

    /// Names the calling thread as the system shows it (`/proc/<pid>/task/<tid>/comm`, debuggers); at most 15
    /// bytes are kept. Foundation's `Thread.name` doesn't reach the system on Linux.
    package static func nameCurrentThread(_ name: String) {
        #if os(Linux)
        // glibc's `pthread_setname_np` isn't visible to Swift; the kernel takes the name through procfs as well.
        try? (String(name.utf8.prefix(15)) ?? name).write(
            toFile: "/proc/thread-self/comm", atomically: false, encoding: .utf8)
        #endif
    }

    /// How many watchers are running now.
    package var runningCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return running
    }

    /// Counts a watcher gone.
    package func end() {
        condition.lock()
        running -= 1
        condition.broadcast()
        condition.unlock()
    }

    /// Whether watchers must stop: read by each watcher between waits.
    package var isStopping: Bool {
        condition.lock()
        defer { condition.unlock() }
        return isStopped
    }

    /// Tells every watcher to stop and, with `waiting`, waits until they all have (each checks at least every
    /// few hundred milliseconds), at most `timeout`.
    package func stop(waiting: Bool, timeout: TimeInterval = 5) {
        condition.lock()
        defer { condition.unlock() }
        isStopped = true
        guard waiting else { return }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while running > 0, condition.wait(until: deadline) {}
    }
}
