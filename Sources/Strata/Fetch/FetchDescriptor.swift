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
    /// A Core Data format predicate; when `predicate` is set too, a model must match both.
    public var formatPredicate: FormatPredicate?
    /// The order of the results: the first descriptor decides, the next ones break ties.
    public var sortBy: [SortDescriptor<T>]
    /// Core Data-style sort descriptors, applied after `sortBy`'s.
    public var sortDescriptors: [FormatSortDescriptor] = []
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

    /// Creates a fetch descriptor with a Core Data format predicate.
    ///
    /// ```swift
    /// let open = FetchDescriptor<Task>(predicate: FormatPredicate(format: "isCompleted == NO"))
    /// ```
    ///
    /// The predicate is not optional, so `FetchDescriptor(predicate: nil)` keeps meaning a `Predicate<T>?`;
    /// use ``init(predicate:sortDescriptors:)`` for an optional format predicate.
    public init(predicate: FormatPredicate, sortBy: [SortDescriptor<T>] = []) {
        self.formatPredicate = predicate
        self.sortBy = sortBy
    }

    /// Creates a fetch descriptor the Core Data way: a format predicate (or `nil` for all models) and
    /// `NSSortDescriptor`-style sort descriptors.
    ///
    /// ```swift
    /// let descriptor = FetchDescriptor<Task>(
    ///     predicate: FormatPredicate(format: "isCompleted == NO"),
    ///     sortDescriptors: [
    ///         FormatSortDescriptor(key: "dueDate", ascending: true),
    ///         FormatSortDescriptor(key: "priority", ascending: false),
    ///     ]
    /// )
    /// ```
    public init(predicate: FormatPredicate?, sortDescriptors: [FormatSortDescriptor]) {
        self.formatPredicate = predicate
        self.sortBy = []
        self.sortDescriptors = sortDescriptors
    }
}
