import Strata

extension Application {
    /// Declares the `ModelContainer` that ``ModelState`` values read and write through.
    ///
    /// Register one container and reference it from every model state. `container` is evaluated
    /// once per ``Application``, the first time the property is read; build it in a helper function
    /// so that a failure to open the store is handled in one visible place:
    ///
    /// ```swift
    /// extension Application {
    ///     var modelContainer: Dependency<ModelContainer> {
    ///         modelContainer(makeModelContainer())
    ///     }
    /// }
    /// ```
    ///
    /// It is a ``dependency(_:feature:id:fileID:function:line:column:)``, so tests can replace it
    /// with an in-memory container through `override(_:with:)`.
    ///
    /// - Parameters:
    ///   - container: Creates the container; evaluated at most once per container of dependencies.
    ///   - feature: Groups related values in log entries; `"App"` by default.
    ///   - id: The dependency's identifier; derived from the call site when omitted.
    ///   - fileID: The declaring file; leave the default.
    ///   - function: The declaring function or property; leave the default.
    ///   - line: The declaring line; leave the default.
    ///   - column: The declaring column; leave the default.
    /// - Returns: The dependency holding the container (or the newest override of it).
    public func modelContainer(
        _ container: @autoclosure () -> ModelContainer,
        feature: String = "App",
        id: String? = nil,
        fileID: StaticString = #fileID,
        function: StaticString = #function,
        line: Int = #line,
        column: Int = #column
    ) -> Dependency<ModelContainer> {
        dependency(
            container(), feature: feature, id: id, fileID: fileID, function: function, line: line, column: column
        )
    }

    /// The main context of a registered container of ``shared``: the context every
    /// ``ModelState`` of that container reads and writes through.
    ///
    /// ```swift
    /// let context = Application.modelContext(\.modelContainer)
    /// ```
    ///
    /// - Parameters:
    ///   - keyPath: The property declaring the container, see ``modelContainer(_:feature:id:fileID:function:line:column:)``.
    ///   - fileID: The reading file, for log entries; leave the default.
    ///   - function: The reading function, for log entries; leave the default.
    ///   - line: The reading line, for log entries; leave the default.
    ///   - column: The reading column, for log entries; leave the default.
    /// - Returns: The container's `mainContext`.
    public static func modelContext(
        _ keyPath: KeyPath<Application, Dependency<ModelContainer>>,
        fileID: StaticString = #fileID,
        function: StaticString = #function,
        line: Int = #line,
        column: Int = #column
    ) -> ModelContext {
        dependency(keyPath, fileID: fileID, function: function, line: line, column: column).mainContext
    }
}
