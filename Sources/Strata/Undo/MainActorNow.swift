import Foundation

/// Runs main-actor code synchronously when the caller is on the main actor, and not at all otherwise: how the
/// context, which is not bound to an actor, reaches its main-actor `UndoManager`.
///
/// Where the main actor is the main thread (Darwin, and a Linux app's async `main`), asking the thread is enough.
/// Elsewhere — test runners on Linux run main-actor jobs on another thread — the runtime is asked through
/// `Task.immediate`, which starts its operation in place exactly when the caller is already on its actor; an
/// operation that would only run later is dropped.
enum MainActorNow {
    /// Calls `body` now if on the main actor; returns whether it ran.
    @discardableResult
    static func run(_ body: @escaping @MainActor () -> Void) -> Bool {
        #if canImport(Darwin)
        guard Thread.isMainThread else { return false }
        MainActor.assumeIsolated { body() }
        return true
        #else
        let gate = Gate()
        Task.immediate { @MainActor in
            if gate.enter() { body() }
        }
        return gate.close()
        #endif
    }

    /// Lets the operation run only while the caller is still inside `run`, on the caller's thread.
    private final class Gate: @unchecked Sendable {
        private enum State { case open, ran, closed }
        private let lock = NSLock()
        private var state = State.open
        private let caller = pthread_self()

        /// Whether the operation may run: `run` has not returned, and this is the caller's thread.
        func enter() -> Bool {
            lock.lock()
            defer { lock.unlock() }
            guard state == .open, pthread_equal(caller, pthread_self()) != 0 else { return false }
            state = .ran
            return true
        }

        /// Closes the gate and tells whether the operation ran.
        func close() -> Bool {
            lock.lock()
            defer { lock.unlock() }
            if state == .ran { return true }
            state = .closed
            return false
        }
    }
}
