import Dispatch
import Synchronization

/// Where the saves of a container's other contexts wait for one context to merge them.
///
/// Saves add to it on the saving thread; the context takes what waits before its next fetch, on its own
/// isolation. The main context and a `ModelActor`'s context don't wait for a fetch: the first save to reach an
/// empty inbox schedules a merge on the main actor or the actor's queue, as SwiftData's main context merges
/// other contexts' saves by itself.
final class UnmergedChangesInbox: Sendable {
    private struct State {
        var changes = UnmergedChanges()
        /// The actor's queue the context is used on (a `ModelActor`'s), where a merge is scheduled.
        var queue: DispatchQueue?
        var isMergeScheduled = false
    }

    /// A weak reference to the context that the inbox may pass between threads: it is only dereferenced in a job
    /// running where the context is used (the main actor, or the actor's queue), which makes the unchecked
    /// `Sendable` sound.
    private struct ContextReference: @unchecked Sendable {
        weak var context: ModelContext?
    }

    private let state = Mutex(State())
    /// Whether changes wait, read without the lock before every fetch.
    private let hasChanges = Atomic(false)
    private let context: ContextReference
    /// Whether the context is a container's main context, which merges on the main actor.
    private let mergesOnMainActor: Bool

    init(for context: ModelContext, isMainContext: Bool) {
        self.context = ContextReference(context: context)
        self.mergesOnMainActor = isMainContext
    }

    /// Whether a save of another context waits to be merged.
    var hasUnmergedChanges: Bool { hasChanges.load(ordering: .acquiring) }

    /// Sets the queue a `ModelActor`'s context is used on, where merges are scheduled.
    func mergeOn(_ queue: DispatchQueue?) {
        state.withLock { $0.queue = queue }
    }

    /// Adds another context's save, and schedules a merge where the context is used if one is needed.
    func add(_ changes: UnmergedChanges) {
        let schedule: (onMainActor: Bool, queue: DispatchQueue?)? = state.withLock { state in
            state.changes.formUnion(changes)
            hasChanges.store(true, ordering: .releasing)
            guard !state.isMergeScheduled, mergesOnMainActor || state.queue != nil else { return nil }
            state.isMergeScheduled = true
            return (mergesOnMainActor, state.queue)
        }
        guard let schedule else { return }
        let reference = context
        if schedule.onMainActor {
            Task { @MainActor in reference.context?.mergeScheduledChanges() }
        } else if let queue = schedule.queue {
            queue.async { reference.context?.mergeScheduledChanges() }
        }
    }

    /// Takes what waits; `nil` when nothing does.
    func take(scheduled: Bool = false) -> UnmergedChanges? {
        state.withLock { state in
            if scheduled { state.isMergeScheduled = false }
            guard !state.changes.isEmpty else { return nil }
            hasChanges.store(false, ordering: .releasing)
            let changes = state.changes
            state.changes = UnmergedChanges()
            return changes
        }
    }

    /// Puts back changes a merge couldn't apply (the store couldn't be read), before anything saved since, so the
    /// next fetch tries again.
    func putBack(_ changes: UnmergedChanges) {
        state.withLock { state in
            var restored = changes
            restored.formUnion(state.changes)
            state.changes = restored
            hasChanges.store(true, ordering: .releasing)
        }
    }
}

/// The inboxes of a container's contexts: a save hands its changes to every context but the saving one.
final class UnmergedChangesInboxes: Sendable {
    private let inboxes = Mutex<[ObjectIdentifier: UnmergedChangesInbox]>([:])

    init() {}

    /// Starts handing saves to `context`'s inbox.
    func register(_ inbox: UnmergedChangesInbox, of context: ObjectIdentifier) {
        inboxes.withLock { $0[context] = inbox }
    }

    /// Stops handing saves to a context (it is being released).
    func unregister(_ context: ObjectIdentifier) {
        inboxes.withLock { _ = $0.removeValue(forKey: context) }
    }

    /// Hands a save of `origin` to the container's other contexts; `makeChanges` runs only if there are any.
    func deliver(_ makeChanges: @autoclosure () -> UnmergedChanges, from origin: ObjectIdentifier?) {
        let receivers = inboxes.withLock { inboxes in
            inboxes.compactMap { context, inbox in context == origin ? nil : inbox }
        }
        guard !receivers.isEmpty else { return }
        let changes = makeChanges()
        guard !changes.isEmpty else { return }
        for inbox in receivers { inbox.add(changes) }
    }
}
