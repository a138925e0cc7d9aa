import Foundation
import Strata

/// Reads and writes the store for view models and scripting commands.
///
/// Every call works in a fresh `ModelContext`, so reads always see what other processes saved (a long-lived
/// context's identity map would keep showing the values it first loaded), and every write is saved at once.
struct Shelf: Sendable {
    /// The container of the open store.
    let container: ModelContainer
    /// The author stamped on the history of this shelf's saves (`"script"` for the scripting commands), so the
    /// app can tell their changes from its own.
    var author: String? = nil

    /// A fresh context whose saves carry the shelf's author.
    private func writingContext() -> ModelContext {
        let context = ModelContext(container)
        context.author = author
        return context
    }

    /// Fetches `descriptor` in a fresh context and snapshots each model with `record`.
    ///
    /// - Throws: the errors of `ModelContext.fetch(_:)`.
    func records<Model: PersistentModel, Row>(
        _ descriptor: FetchDescriptor<Model>, _ record: (Model) -> Row
    ) throws -> [Row] {
        try ModelContext(container).fetch(descriptor).map(record)
    }

    /// Runs `change` on the model with `id` in a fresh context and saves.
    ///
    /// - Returns: whether `change` reported that it changed something (nothing is saved otherwise).
    /// - Throws: `StrataError.modelNotInContext` when the model is gone, or the errors of `save()`.
    @discardableResult
    func update<Model: PersistentModel>(
        _ id: PersistentIdentifier, as type: Model.Type, _ change: (Model) -> Bool
    ) throws -> Bool {
        let context = writingContext()
        let model: Model = try context.existingModel(for: id)
        guard change(model) else { return false }
        try context.save()
        return true
    }

    /// Inserts `model` in a fresh context and saves.
    ///
    /// - Throws: the errors of `save()`.
    func insert<Model: PersistentModel>(_ model: Model) throws {
        let context = writingContext()
        context.insert(model)
        try context.save()
    }

    /// Deletes the model with `id`, if it still exists, and saves.
    ///
    /// - Throws: the errors of `save()`.
    func delete<Model: PersistentModel>(_ id: PersistentIdentifier, as type: Model.Type) throws {
        let context = writingContext()
        guard let model: Model = try? context.existingModel(for: id) else { return }
        context.delete(model)
        try context.save()
    }
}
