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
        guard autosaveEnabled, !isAutosaveScheduled else { return }
        // The context is only used in its own isolation domain; each branch hands it to a job that runs in that
        // domain (the main actor, or the actor's serial queue), so it is not shared across domains.
        nonisolated(unsafe) let context = self
        if isMainContext || MainQueue.isCurrent {
            isAutosaveScheduled = true
            Task { @MainActor in context.runScheduledAutosave() }
        } else if let autosaveQueue {
            isAutosaveScheduled = true
            autosaveQueue.async { context.runScheduledAutosave() }
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
        isAutosaveScheduled = false
        guard autosaveEnabled, hasChanges else { return }
        do {
            try save()
        } catch {
            autosaveError = StrataError(error) ?? .storeFailure(operation: "autosave", reason: "\(error)")
        }
    }
}
