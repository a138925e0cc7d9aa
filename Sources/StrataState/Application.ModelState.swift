import Strata

extension Application {
    /// Reads and writes the models of one type through a registered container's main context.
    ///
    /// Declare it as a computed property with ``Application/modelState(container:fetchDescriptor:feature:id:fileID:function:line:column:)``
    /// and use it through the ``StrataState/ModelState`` property wrapper or
    /// ``Application/modelState(_:fileID:function:line:column:)``:
    ///
    /// ```swift
    /// extension Application {
    ///     var todoItems: ModelState<TodoItem> {
    ///         modelState(
    ///             container: \.modelContainer,
    ///             fetchDescriptor: FetchDescriptor<TodoItem>(sortBy: [SortDescriptor(\.title)]),
    ///             id: "todoItems"
    ///         )
    ///     }
    /// }
    ///
    /// let state = Application.modelState(\.todoItems)
    /// state.insert(TodoItem(title: "Buy milk"))      // inserted and saved
    /// let items = state.models                       // fetched now, sorted by title
    /// ```
    ///
    /// Nothing is cached: ``models`` fetches on every read, and the container's main context is
    /// the source of truth. Each mutator saves at once; the plain ones log a failure as an error
    /// entry and return, the ``strict`` ones throw it. When a save fails, its change stays pending
    /// in the main context (call `context.rollback()` to discard it).
    ///
    /// ## Observation
    ///
    /// Reading ``models`` inside `withObservationTracking` (or from SwiftUI-style observers) is
    /// invalidated by the next successful save of *any* context of the same container in this
    /// process, including background contexts. Saves made by other processes are not seen yet;
    /// they arrive with Strata's live-results layer.
    @MainActor
    public struct ModelState<Model: PersistentModel> {
        /// Where the state is declared, as used in log entries.
        public let scope: Scope
        /// The container the state reads and writes through.
        public let container: ModelContainer
        /// Which models ``models`` returns and in what order, and which ``deleteAll(fileID:function:line:column:)`` deletes.
        public let fetchDescriptor: FetchDescriptor<Model>
        let application: Application
        let declaration: CallSite
        let revision: SaveRevision

        /// The container's main context, through which every read and write goes.
        public var context: ModelContext { container.mainContext }

        /// The models the fetch descriptor describes, fetched now from the main context.
        ///
        /// Each read runs a fetch (including the context's unsaved changes); keep the result in a
        /// local when you need it more than once. When the fetch fails the error is logged and the
        /// result is empty.
        public var models: [Model] {
            _ = revision.value
            do {
                return try context.fetch(fetchDescriptor)
            } catch {
                application.log(
                    .error, "ModelState \(scope) failed to fetch \(Model.self): \(error)",
                    fileID: declaration.fileID, function: declaration.function,
                    line: declaration.line, column: declaration.column
                )
                return []
            }
        }

        /// The throwing counterparts of the mutators, for callers that handle failures.
        ///
        /// ```swift
        /// do {
        ///     try $items.strict.insert(item)
        /// } catch {
        ///     // show the error, roll back, retry…
        /// }
        /// ```
        public var strict: Strict { Strict(context: context, predicate: fetchDescriptor.predicate) }

        /// Inserts `model` and saves; a failure is logged and swallowed.
        ///
        /// - Parameters:
        ///   - model: The model to insert.
        ///   - fileID: The calling file, for log entries; leave the default.
        ///   - function: The calling function, for log entries; leave the default.
        ///   - line: The calling line, for log entries; leave the default.
        ///   - column: The calling column, for log entries; leave the default.
        public func insert(
            _ model: Model,
            fileID: StaticString = #fileID, function: StaticString = #function, line: Int = #line, column: Int = #column
        ) {
            tolerating("insert", at: CallSite(fileID: fileID, function: function, line: line, column: column)) {
                try strict.insert(model)
            }
        }

        /// Deletes `model` and saves; a failure is logged and swallowed.
        ///
        /// - Parameters:
        ///   - model: The model to delete.
        ///   - fileID: The calling file, for log entries; leave the default.
        ///   - function: The calling function, for log entries; leave the default.
        ///   - line: The calling line, for log entries; leave the default.
        ///   - column: The calling column, for log entries; leave the default.
        public func delete(
            _ model: Model,
            fileID: StaticString = #fileID, function: StaticString = #function, line: Int = #line, column: Int = #column
        ) {
            tolerating("delete", at: CallSite(fileID: fileID, function: function, line: line, column: column)) {
                try strict.delete(model)
            }
        }

        /// Saves the main context's pending changes; a failure is logged and swallowed.
        ///
        /// - Parameters:
        ///   - fileID: The calling file, for log entries; leave the default.
        ///   - function: The calling function, for log entries; leave the default.
        ///   - line: The calling line, for log entries; leave the default.
        ///   - column: The calling column, for log entries; leave the default.
        public func save(
            fileID: StaticString = #fileID, function: StaticString = #function, line: Int = #line, column: Int = #column
        ) {
            tolerating("save", at: CallSite(fileID: fileID, function: function, line: line, column: column)) {
                try strict.save()
            }
        }

        /// Deletes every stored model the fetch descriptor's predicate matches (all of them without
        /// one) and saves; a failure is logged and swallowed. The descriptor's sort, limit and offset
        /// don't apply.
        ///
        /// - Parameters:
        ///   - fileID: The calling file, for log entries; leave the default.
        ///   - function: The calling function, for log entries; leave the default.
        ///   - line: The calling line, for log entries; leave the default.
        ///   - column: The calling column, for log entries; leave the default.
        public func deleteAll(
            fileID: StaticString = #fileID, function: StaticString = #function, line: Int = #line, column: Int = #column
        ) {
            tolerating("deleteAll", at: CallSite(fileID: fileID, function: function, line: line, column: column)) {
                try strict.deleteAll()
            }
        }

        /// Runs `operation`, logging what it throws as an error entry at `site`.
        private func tolerating(_ operation: String, at site: CallSite, _ body: () throws -> Void) {
            do {
                try body()
            } catch {
                application.log(
                    .error, "ModelState \(scope) failed to \(operation) \(Model.self): \(error)",
                    fileID: site.fileID, function: site.function, line: site.line, column: site.column
                )
            }
        }
    }

    /// A source location handed down to log entries.
    struct CallSite {
        let fileID: StaticString
        let function: StaticString
        let line: Int
        let column: Int
    }
}
