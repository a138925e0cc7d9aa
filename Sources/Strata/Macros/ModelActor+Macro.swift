/// Gives an actor its own ``ModelContext``, used on the actor's serial executor.
///
/// The actor gains `modelContainer`, `modelExecutor` and `init(modelContainer:)`, and conforms
/// to ``ModelActor``.
///
/// ```swift
/// @ModelActor
/// actor Importer {
///     func importBooks(_ titles: [String]) throws {
///         for title in titles { modelContext.insert(Book(title: title)) }
///         try modelContext.save()
///     }
/// }
/// let importer = Importer(modelContainer: container)
/// ```
@attached(member, names: named(modelExecutor), named(modelContainer), named(init))
@attached(extension, conformances: ModelActor)
public macro ModelActor() = #externalMacro(module: "StrataMacros", type: "ModelActorMacro")
