import Observation
import Synchronization

/// Whether `change` reaches an observer of what `read` reads of `model`: `read` runs inside
/// `withObservationTracking`, then `change` runs, and the answer is whether the tracking's `onChange` ran.
package func notifies<Model>(_ model: Model, reading read: (Model) -> Void, change: (Model) -> Void) -> Bool {
    let notified = Mutex(false)
    withObservationTracking {
        read(model)
    } onChange: {
        notified.withLock { $0 = true }
    }
    change(model)
    return notified.withLock { $0 }
}
