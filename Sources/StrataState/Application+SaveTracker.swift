import Foundation
import Observation
import Strata
import Synchronization

extension Application {
    /// Counts the saves of one `ModelContainer`, so that reading ``ModelState/models`` inside
    /// `withObservationTracking` is invalidated by the next save.
    ///
    /// Every context of the container posts `ModelContext.didSave` after a successful save; the
    /// tracker listens for those and bumps ``SaveRevision`` synchronously. Commits by another
    /// process or another `ModelContainer` on the same file (and `ModelContainer.notifyChanges(to:)`)
    /// arrive through `ModelContainer.observeChanges(_:)`, which watches the store, and bump it on the main actor.
    final class SaveTracker {
        /// The Observation-tracked counter that ``ModelState/models`` reads.
        let revision = SaveRevision()
        /// Kept so the container's identity is not reused while its tracker is cached.
        let container: ModelContainer
        private let observer: any NSObjectProtocol
        /// Changes made outside this process's contexts, reported by the container.
        private let externalChanges: ModelContainer.ChangeObservation

        init(container: ModelContainer) {
            self.container = container
            let revision = revision
            externalChanges = container.observeChanges { change in
                // Saves of this process's contexts were counted by `didSave` already; a change that merges one
                // with a change from elsewhere still bumps.
                guard change.includesExternalChanges else { return }
                revision.bump()
            }
            observer = NotificationCenter.default.addObserver(
                forName: ModelContext.didSave, object: nil, queue: nil
            ) { [weak container] note in
                // The note is delivered synchronously on the saving context's thread, while that
                // context is still saving, so reading its container reference here is safe.
                guard let context = note.object as? ModelContext, let container,
                    context.container === container
                else {
                    return
                }
                revision.bump()
            }
        }

        deinit {
            NotificationCenter.default.removeObserver(observer)
            externalChanges.cancel()
        }
    }

    /// A save counter that Observation tracks, safe to bump from any thread.
    ///
    /// Background contexts save on their own executor, so the counter cannot be main-actor
    /// isolated: observers run `onChange` on the thread of the save that bumped it.
    final class SaveRevision: Observable, Sendable {
        private let count = Mutex(0)
        private let registrar = ObservationRegistrar()

        /// The number of saves seen so far; reading it registers an Observation access.
        var value: Int {
            registrar.access(self, keyPath: \.value)
            return count.withLock { $0 }
        }

        /// Records one more save and notifies observers of ``value``.
        func bump() {
            registrar.withMutation(of: self, keyPath: \.value) {
                count.withLock { $0 += 1 }
            }
        }
    }

    /// The save tracker of `container`, created the first time a ``ModelState`` of it is built.
    func saveTracker(for container: ModelContainer) -> SaveTracker {
        let scope = Scope(feature: "StrataState", id: "saves of container \(ObjectIdentifier(container))")
        return cachedValue(for: CacheKey(scope: scope, type: SaveTracker.self)) {
            SaveTracker(container: container)
        }
    }
}
