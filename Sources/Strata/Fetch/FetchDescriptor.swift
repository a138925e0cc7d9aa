import Foundation

/// What to fetch: which models (a predicate), in which order, and how many.
///
/// ```swift
/// var descriptor = FetchDescriptor<Book>(
///     predicate: #Predicate { $0.author == "Le Guin" },
///     sortBy: [SortDescriptor(\.title)]
/// )
/// descriptor.fetchLimit = 20
/// let books = try context.fetch(descriptor)
/// ```
public struct FetchDescriptor<T: PersistentModel>: @unchecked Sendable {
    // `@unchecked` because of the key path arrays; key paths are immutable.
    /// Which models to fetch; `nil` fetches all.
    public var predicate: Predicate<T>?
    /// The order of the results: the first descriptor decides, the next ones break ties.
    public var sortBy: [SortDescriptor<T>]
    /// The most results to return; `nil` for no limit.
    public var fetchLimit: Int?
    /// How many results to skip first; `nil` for none.
    public var fetchOffset: Int?
    /// Whether unsaved inserts, changes and deletes in the context are reflected in the results (default `true`).
    public var includePendingChanges: Bool = true
    /// The properties to load; the others load when first read. Empty loads all.
    public var propertiesToFetch: [PartialKeyPath<T>] = []
    /// The relationships to load together with the results.
    public var relationshipKeyPathsForPrefetching: [PartialKeyPath<T>] = []

    /// Creates a fetch descriptor.
    public init(predicate: Predicate<T>? = nil, sortBy: [SortDescriptor<T>] = []) {
        self.predicate = predicate
        self.sortBy = sortBy
    }
}
