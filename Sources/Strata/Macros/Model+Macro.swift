// The generated code names `Observation.ObservationRegistrar` and `@ObservationIgnored`, and the
// `@Model` declaration below lists `Observable`, so Observation must be visible wherever Strata is.

/// Turns a class into a persistent model whose stored properties live in a store.
///
/// Every stored `var` becomes persisted (unless marked ``Transient()``); the class gains a
/// ``PersistentModel`` conformance, observation of each property, and the schema description
/// ``ModelContainer`` reads. Like SwiftData, the class's initializer must assign every persisted
/// property that has no default value.
///
/// ```swift
/// @Model
/// final class Book {
///     #Unique<Book>([\.isbn])
///     @Attribute(.unique) var isbn: String
///     var title: String
///     @Relationship(deleteRule: .cascade, inverse: \Chapter.book) var chapters: [Chapter] = []
///     @Transient var viewCount: Int = 0
///
///     init(isbn: String, title: String) {
///         self.isbn = isbn
///         self.title = title
///     }
/// }
/// ```
///
/// Models are written as for SwiftData:
///
/// - **Inferred types.** `var count = 0`, `var created = Date.now`, `var tags = [String]()` or
///   `var items = [Item]()` are persisted with the type Swift infers; the schema reads it from the key path.
/// - **Observers.** `willSet`/`didSet` on a persisted property (attribute or relationship) run on every
///   assignment your code makes, with `newValue`/`oldValue` or the names you write. They never run when a model is
///   loaded, refreshed, merged or rolled back, which write its values directly. One difference from Swift: an
///   assignment in the initializer runs them once every stored property has a value (for a property with a default
///   value, that is every assignment in the initializer), where Swift runs none in the class's own initializer.
/// - **Your own `==`, `hash(into:)`, `init(from:)` and `encode(to:)`**, written in the class or in any extension of
///   it, are the ones used;
///   without them a model is equal only to itself and hashes by identity. A model that is itself `Codable` is still
///   a relationship wherever another model refers to it (`var cocktails: [Cocktail]?`).
/// - **`@Transient` on a computed property** is accepted and changes nothing.
///
/// ## Isolation and Sendable
///
/// As in SwiftData, the class is `Sendable` (unchecked), so models can be handed to tasks and actors. A model
/// still belongs to the context that inserted or fetched it, whose actor is the only one that may read or change
/// it; what is safe elsewhere is passing it on (to read it, send its `persistentModelID` and look the model up
/// in a context of the receiving actor), and handing an uninserted model to one task at a time. Conforming to
/// `Sendable` also keeps the class `nonisolated` in a module whose default isolation is the main actor (new Xcode
/// 26 app targets, `.defaultIsolation(MainActor.self)`): its properties, key paths, `PersistentModel` conformance
/// and methods are usable from a `@ModelActor`, nonisolated functions and `SortDescriptor`/`#Predicate`, exactly as
/// SwiftData's are. Write `@MainActor @Model` to keep a model on the main actor.
///
/// The macro reports, as compile errors, anything it can't persist: a struct instead of a class,
/// function/tuple/`Any`/existential/metatype types, `let` with an initial value (Swift would give every model
/// loaded from the store that value instead of the stored one), `lazy` properties, several properties in one
/// declaration, generic classes and stored persisted properties inside `#if`.
@attached(member, conformances: PersistentModel, Observable, Sendable, names: arbitrary)
@attached(memberAttribute)
@attached(extension, conformances: PersistentModel, Observable, Sendable, Equatable, Hashable)
public macro Model() = #externalMacro(module: "StrataMacros", type: "ModelMacro")

/// Routes one stored property of a ``Model()`` class through the model's backing data.
///
/// `@Model` adds it to each persisted property; don't write it yourself.
@attached(accessor, names: named(init), named(get), named(set))
@attached(peer, names: prefixed(_))
public macro _PersistedProperty() = #externalMacro(module: "StrataMacros", type: "PersistedPropertyMacro")
