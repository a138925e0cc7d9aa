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
/// The macro reports, as compile errors, anything it can't persist: a struct instead of a class,
/// a property without a type annotation, function/tuple/`Any`/existential/metatype types,
/// `let` without a value, `lazy` or observed (`willSet`/`didSet`) properties, generic classes and
/// members inside `#if`.
@attached(member, names: arbitrary)
@attached(memberAttribute)
@attached(extension, conformances: PersistentModel, Observable)
public macro Model() = #externalMacro(module: "StrataMacros", type: "ModelMacro")

/// Routes one stored property of a ``Model()`` class through the model's backing data.
///
/// `@Model` adds it to each persisted property; don't write it yourself.
@attached(accessor, names: named(init), named(get), named(set))
@attached(peer, names: prefixed(_))
public macro _PersistedProperty() = #externalMacro(module: "StrataMacros", type: "PersistedPropertyMacro")
