/// How one refresh of a `ResultsObserver` changed its results, in the order a list applies it.
///
/// Indexes are positions in the flat `results`. To turn the old results into the new ones:
/// 1. remove the rows at `deletedIndexes` and at every move's `from` — old indexes, highest first;
/// 2. insert the rows at `insertedIndexes` and every moved row at its move's `to` — new indexes, lowest first;
/// 3. reconfigure the rows at `updatedIndexes` (new indexes) — models still present, not moved, whose
///    properties changed. A moved model may have changed too: configure it again at its new place.
///
/// Sections follow the same rule: remove `deletedSections` (old section indexes, highest first), insert
/// `insertedSections` (new section indexes, lowest first). This is how `UITableView` / `NSFetchedResultsController`
/// batch updates and Swift's `CollectionDifference` are applied.
///
/// ```swift
/// for await snapshot in observer.changes {
///     for index in snapshot.changes.deletedIndexes { rows.remove(at: index) }
///     for index in snapshot.changes.insertedIndexes { rows.insert(Row(snapshot.results[index]), at: index) }
/// }
/// ```
public struct ResultsChangeSet: Sendable, Hashable {
    /// A model that changed place: `from` is its old index, `to` its new one.
    public struct Move: Sendable, Hashable {
        /// The old index.
        public var from: Int
        /// The new index.
        public var to: Int

        /// Creates a move.
        public init(from: Int, to: Int) {
            self.from = from
            self.to = to
        }
    }

    /// Old indexes of models no longer in the results, highest first.
    public var deletedIndexes: [Int] = []
    /// New indexes of models that joined the results, lowest first.
    public var insertedIndexes: [Int] = []
    /// Models still in the results at another place relative to the others, by new index, lowest first.
    public var moves: [Move] = []
    /// New indexes of models still in place whose properties changed, lowest first.
    public var updatedIndexes: [Int] = []
    /// Old indexes of sections that are gone, highest first.
    public var deletedSections: [Int] = []
    /// New indexes of sections that appeared, lowest first.
    public var insertedSections: [Int] = []

    /// Creates an empty change set.
    public init() {}

    /// Whether nothing changed.
    public var isEmpty: Bool {
        deletedIndexes.isEmpty && insertedIndexes.isEmpty && moves.isEmpty && updatedIndexes.isEmpty
            && deletedSections.isEmpty && insertedSections.isEmpty
    }
}
