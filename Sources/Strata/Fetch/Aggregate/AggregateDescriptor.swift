import Foundation

/// What to total: which models (a predicate), grouped by which attributes, with which aggregates, in which order,
/// and how many groups — the aggregate counterpart of `FetchDescriptor`, run by `ModelContext.fetch(_:)` without
/// loading a model.
///
/// ```swift
/// let descriptor = AggregateDescriptor(
///     predicate: #Predicate<Expense> { $0.date >= startOfMonth },
///     groupBy: \.category,
///     aggregates: .sum(\.cents), .count,
///     sortBy: [AggregateSortDescriptor(.sum(\Expense.cents), order: .reverse)])
/// for group in try context.fetch(descriptor) {
///     let (cents, count) = group.value  // (Int, Int)
///     print(group.key, cents, count)     // group.key: String
/// }
/// ```
///
/// `Key` is the type of the group key (a tuple for several key paths, `()` for none) and `Value` the type of the
/// aggregates (a tuple for several). Without key paths there is one group, even over no models.
///
/// Core Data spells the same fetch as an `NSFetchRequest` with `resultType = .dictionaryResultType`,
/// `propertiesToGroupBy` (the key paths), `propertiesToFetch` (the key paths and one `NSExpressionDescription`
/// per aggregate) and sort descriptors; here each value arrives typed instead of in a dictionary.
public struct AggregateDescriptor<T: PersistentModel, Key, Value>: @unchecked Sendable {
    // `@unchecked` because of the key paths and readers; both are immutable.
    /// Which models to total; `nil` for all.
    public var predicate: Predicate<T>?
    /// The order of the groups: the first descriptor decides, the next ones break ties; groups that tie on every
    /// descriptor come in the order of their keys.
    public var sortBy: [AggregateSortDescriptor<T>]
    /// The most groups to return; `nil` for no limit.
    public var fetchLimit: Int?
    /// How many groups to skip first; `nil` for none.
    public var fetchOffset: Int?
    /// Which groups to keep, judged by their aggregates (Core Data's `havingPredicate`); `nil` for all. The groups
    /// are filtered before they are sorted and limited.
    public var havingPredicate: AggregatePredicate<T>?

    /// The key paths the models are grouped by.
    package let groupKeyPaths: [AggregateOperand]
    /// A predicate in Core Data's format-string language, met as well as `predicate` (the format-string route).
    package var formatPredicate: FormatPredicate?
    /// The aggregates, in the order of `Value`.
    package let terms: [AggregateTerm]
    package let readKey: (AggregateRowReader) throws -> Key
    package let readValue: (AggregateRowReader) throws -> Value

    /// Creates an aggregate descriptor: the models `predicate` matches, grouped by the values of `keyPaths`
    /// (attributes of the model or of models it reaches through to-one relationships: `\.author?.name`), with
    /// one value of each of `aggregates` per group.
    public init<each K, each A>(
        predicate: Predicate<T>? = nil,
        groupBy keyPaths: repeat KeyPath<T, each K>,
        aggregates: repeat Aggregate<T, each A>,
        sortBy: [AggregateSortDescriptor<T>] = []
    ) where Key == (repeat each K), Value == (repeat each A) {
        self.predicate = predicate
        self.sortBy = sortBy
        var keys: [AggregateOperand] = []
        for keyPath in repeat each keyPaths { keys.append(.keyPath(keyPath)) }
        var terms: [AggregateTerm] = []
        for aggregate in repeat each aggregates { terms.append(aggregate.term) }
        self.groupKeyPaths = keys
        self.terms = terms
        self.readKey = { reader in (repeat try reader.nextKey((each K).self)) }
        let readers = (repeat (each aggregates).read)
        self.readValue = { reader in (repeat try reader.nextValue(each readers)) }
    }

    /// A descriptor read by closures of its own, for the format-string route.
    package init(
        formatPredicate: FormatPredicate?, groupKeys: [AggregateOperand], terms: [AggregateTerm],
        readKey: @escaping (AggregateRowReader) throws -> Key, readValue: @escaping (AggregateRowReader) throws -> Value
    ) {
        self.predicate = nil
        self.formatPredicate = formatPredicate
        self.sortBy = []
        self.groupKeyPaths = groupKeys
        self.terms = terms
        self.readKey = readKey
        self.readValue = readValue
    }
}

/// One group of an aggregate fetch: the values of its key paths, and its aggregates.
public struct AggregateResult<Key, Value> {
    /// The group's key: the value of the descriptor's key path, a tuple of them, or `()` without one.
    public let key: Key
    /// The group's aggregates: one value, or a tuple in the descriptor's order.
    public let value: Value
}

extension AggregateResult: @unchecked Sendable where Key: Sendable, Value: Sendable {}
