import Strata

extension Application {
    /// Declares a ``ModelState``: the models of one type in a registered container.
    ///
    /// Call it from a computed property in an extension. Without a fetch descriptor the state
    /// holds every model of the type; give one to filter and sort:
    ///
    /// ```swift
    /// extension Application {
    ///     var items: ModelState<Item> {
    ///         modelState(container: \.modelContainer)
    ///     }
    ///
    ///     var sortedItems: ModelState<Item> {
    ///         modelState(
    ///             container: \.modelContainer,
    ///             fetchDescriptor: FetchDescriptor<Item>(sortBy: [SortDescriptor(\.title)]),
    ///             id: "items"
    ///         )
    ///     }
    /// }
    /// ```
    ///
    /// The state caches no models: it reads the container's main context every time.
    ///
    /// - Parameters:
    ///   - container: The property declaring the container, see ``modelContainer(_:feature:id:fileID:function:line:column:)``.
    ///   - fetchDescriptor: Which models the state holds and in what order; all of them, unsorted, by default.
    ///   - feature: Groups related values in log entries; `"App"` by default.
    ///   - id: The state's identifier in log entries; derived from the call site when omitted.
    ///   - fileID: The declaring file; leave the default.
    ///   - function: The declaring function or property; leave the default.
    ///   - line: The declaring line; leave the default.
    ///   - column: The declaring column; leave the default.
    /// - Returns: The state, bound to the container's current value (or the newest override of it).
    public func modelState<Model: PersistentModel>(
        container: KeyPath<Application, Dependency<ModelContainer>>,
        fetchDescriptor: FetchDescriptor<Model> = .init(),
        feature: String = "App",
        id: String? = nil,
        fileID: StaticString = #fileID,
        function: StaticString = #function,
        line: Int = #line,
        column: Int = #column
    ) -> ModelState<Model> {
        let resolved = self[keyPath: container].value
        return ModelState(
            scope: Self.scope(feature: feature, id: id, fileID: fileID, function: function, line: line, column: column),
            container: resolved,
            fetchDescriptor: fetchDescriptor,
            application: self,
            declaration: CallSite(fileID: fileID, function: function, line: line, column: column),
            revision: saveTracker(for: resolved).revision
        )
    }

    /// Reads a ``ModelState`` from ``shared``, for services and other code outside views.
    ///
    /// ```swift
    /// let state = Application.modelState(\.items)
    /// state.insert(Item(title: "New"))
    /// ```
    ///
    /// - Parameters:
    ///   - keyPath: The property declaring the state.
    ///   - fileID: The reading file, for log entries; leave the default.
    ///   - function: The reading function, for log entries; leave the default.
    ///   - line: The reading line, for log entries; leave the default.
    ///   - column: The reading column, for log entries; leave the default.
    /// - Returns: The state, bound to the current container of ``shared``.
    public static func modelState<Model: PersistentModel>(
        _ keyPath: KeyPath<Application, ModelState<Model>>,
        fileID: StaticString = #fileID,
        function: StaticString = #function,
        line: Int = #line,
        column: Int = #column
    ) -> ModelState<Model> {
        let application = shared
        let state = application[keyPath: keyPath]
        application.log(
            .debug, "Reading model state \(state.scope)", fileID: fileID, function: function, line: line, column: column
        )
        return state
    }
}
