import Foundation
import Strata

extension Application.ModelState {
    /// The throwing mutators of a ``Application/ModelState``, backed by the same main context.
    ///
    /// Reach it through ``Application/ModelState/strict``:
    ///
    /// ```swift
    /// try $items.strict.insert(item)
    /// try $items.strict.deleteAll()
    /// ```
    @MainActor
    public struct Strict {
        /// The container's main context.
        public let context: ModelContext
        private let predicate: Predicate<Model>?

        init(context: ModelContext, predicate: Predicate<Model>?) {
            self.context = context
            self.predicate = predicate
        }

        /// Inserts `model` and saves.
        ///
        /// - Parameter model: The model to insert.
        /// - Throws: The error of `ModelContext.save()`; the insert then stays pending.
        public func insert(_ model: Model) throws {
            context.insert(model)
            try context.save()
        }

        /// Deletes `model` and saves.
        ///
        /// - Parameter model: The model to delete.
        /// - Throws: The error of `ModelContext.save()`; the delete then stays pending.
        public func delete(_ model: Model) throws {
            context.delete(model)
            try context.save()
        }

        /// Saves the main context's pending changes.
        ///
        /// - Throws: The error of `ModelContext.save()`; the changes then stay pending.
        public func save() throws {
            try context.save()
        }

        /// Deletes every stored model the fetch descriptor's predicate matches (all of them without
        /// one) and saves. The descriptor's sort, limit and offset don't apply.
        ///
        /// - Throws: The error of `ModelContext.delete(model:where:)` (a predicate the store
        ///   can't run, for instance) or of `ModelContext.save()`.
        public func deleteAll() throws {
            try context.delete(model: Model.self, where: predicate)
            try context.save()
        }
    }
}
