import Strata

/// Reads the models of an ``Application/ModelState`` declared on ``Application``, and mutates
/// them through its projected value.
///
/// ```swift
/// @MainActor @Observable
/// final class TodoListViewModel {
///     @ObservationIgnored @ModelState(\.todoItems) var todoItems: [TodoItem]
///
///     func add(title: String) { $todoItems.insert(TodoItem(title: title)) }
///     func remove(_ item: TodoItem) { $todoItems.delete(item) }
///     func clearAll() { $todoItems.deleteAll() }
/// }
/// ```
///
/// The wrapper remembers the ``Application/shared`` container current when it was created (the
/// one of ``Application/withShared(_:operation:)`` in tests) and reads the declaration from it on
/// every access, so overrides of the container are seen. `@Observable` classes need
/// `@ObservationIgnored` in front of it; observers still see changes, because reading the
/// wrapped value reads ``Application/ModelState/models``, which Observation tracks.
@MainActor
@propertyWrapper
public struct ModelState<Model: PersistentModel> {
    private let application: Application
    private let keyPath: KeyPath<Application, Application.ModelState<Model>>

    /// Wraps the state declared at `keyPath` of ``Application/shared``.
    ///
    /// - Parameter keyPath: The property declaring the state.
    public init(_ keyPath: KeyPath<Application, Application.ModelState<Model>>) {
        self.application = Application.shared
        self.keyPath = keyPath
    }

    /// The models, fetched now; see ``Application/ModelState/models``.
    public var wrappedValue: [Model] {
        projectedValue.models
    }

    /// The state itself: `insert(_:)`, `delete(_:)`, `save()`, `deleteAll()` and `strict`.
    ///
    /// ```swift
    /// $items.insert(item)
    /// try $items.strict.save()
    /// ```
    public var projectedValue: Application.ModelState<Model> {
        application[keyPath: keyPath]
    }
}
