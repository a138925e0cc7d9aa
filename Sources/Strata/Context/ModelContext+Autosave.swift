extension ModelContext {
    /// Enqueues one save on the main actor after the first change, for the main context with autosave on.
    ///
    /// Other contexts are not bound to an actor Strata knows, so they save only when asked.
    func scheduleAutosave() {
        guard autosaveEnabled, isMainContext, !isAutosaveScheduled else { return }
        isAutosaveScheduled = true
        // The main context is only ever used on the main actor (`ModelContainer.mainContext` is `@MainActor`),
        // so handing it to a main-actor task does not share it across isolation domains.
        nonisolated(unsafe) let context = self
        Task { @MainActor in
            context.performAutosave()
        }
    }

    @MainActor private func performAutosave() {
        isAutosaveScheduled = false
        guard autosaveEnabled, hasChanges else { return }
        do {
            try save()
        } catch let error as StrataError {
            autosaveError = error
        } catch {
            autosaveError = .storeFailure(operation: "autosave", reason: "\(error)")
        }
    }
}
