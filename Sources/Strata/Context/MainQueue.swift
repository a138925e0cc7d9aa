import Dispatch

/// Whether code runs on the main dispatch queue, where the main actor runs its jobs. `Thread.isMainThread` can't
/// tell on Linux: the main queue is drained by a thread other than the process's first one.
enum MainQueue {
    // Set once, on first use (globals initialize atomically); libdispatch guards the queue's specific values.
    private static let key: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    /// Whether the caller runs on the main queue (so on the main actor, when it runs a job).
    static var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }
}
