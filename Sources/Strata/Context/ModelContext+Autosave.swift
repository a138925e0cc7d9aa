import Foundation

extension ModelContext {
    /// Enqueues one save after the first change while autosave is on, where the context is used:
    ///
    /// - the main context, and any context changed on the main actor (the main queue): a task on the main actor, so everything
    ///   changed in the same synchronous stretch of main-actor code is saved together;
    /// - a `ModelActor`'s context (`DefaultSerialModelExecutor`): a job on the actor's queue, after the current one;
    /// - any other context: Strata knows no executor to run a later save on, so it saves at `processPendingChanges()`
    ///   (and when asked).
    func scheduleAutosave() {
        guard autosaveEnabled else { return }
        if let scheduledAutosave {
            scheduledAutosave.keepContext()
            return
        }
        // The context is only used in its own isolation domain; each branch hands it to a job that runs in that
        // domain (the main actor, or the actor's serial queue), so it is not shared across domains.
        if isMainContext || MainQueue.isCurrent {
            let autosave = ScheduledAutosave(self)
            scheduledAutosave = autosave
            Task { @MainActor in autosave.run() }
        } else if let autosaveQueue {
            let autosave = ScheduledAutosave(self)
            scheduledAutosave = autosave
            autosaveQueue.async { autosave.run() }
        }
    }

    /// The main context's pending autosave, saved now because its container is being released on the main thread.
    @MainActor func saveBeforeRelease() {
        isSavingBeforeRelease = true
        defer { isSavingBeforeRelease = false }
        runScheduledAutosave()
    }

    /// Saves the pending changes if autosave is still on; a failure is kept in `autosaveError`.
    func runScheduledAutosave() {
        scheduledAutosave = nil
        guard autosaveEnabled, hasChanges else { return }
        do {
            try save()
        } catch {
            autosaveError = StrataError(error) ?? .storeFailure(operation: "autosave", reason: "\(error)")
        }
    }
}

/// A save that autosave enqueued, waiting to run where its context is used.
///
/// It keeps the context alive while the context has changes for it to save, and only then: a context whose
/// changes were saved another way goes as soon as the app lets go of it (and with it, a container it kept),
/// without waiting for the enqueued save to run.
///
/// Unchecked: it is read and written only in its context's isolation domain, where the enqueued job runs too.
final class ScheduledAutosave: @unchecked Sendable {
    private var keptContext: ModelContext?
    private weak var context: ModelContext?

    init(_ context: ModelContext) {
        keptContext = context
        self.context = context
    }

    /// Keeps the context alive until the save runs: it has changes again.
    func keepContext() { keptContext = context }

    /// Lets the context go before the save runs: it has no changes left to save.
    func releaseContext() { keptContext = nil }

    /// Runs the context's autosave, if the context is still there.
    func run() {
        let context = keptContext ?? context
        keptContext = nil
        context?.runScheduledAutosave()
    }
}
