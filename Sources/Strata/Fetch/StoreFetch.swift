/// A fetch in store-neutral terms: what a ``FetchPlan`` asks a store for (`PersistentStore.fetch`).
package struct StoreFetch: Sendable {
    package var entity: Schema.Entity
    /// The properties to read (by index); `nil` reads only the primary key.
    package var columns: [Int]?
    package var condition: QueryExpression?
    /// Restricts the rows to those whose `column` (the primary key or a foreign key) is one of `keys`,
    /// in addition to `condition`.
    package var keyFilter: (column: String, keys: [Int64])?
    package var ordering: [QueryOrdering]
    package var limit: Int?
    package var offset: Int?
    /// The app's `FetchDescriptor` this fetch was planned from (`nil` for the context's own reads: faults,
    /// relationships), for a custom store, which is asked in SwiftData's terms.
    package var descriptor: (any Sendable)?

    package init(
        entity: Schema.Entity, columns: [Int]?, condition: QueryExpression? = nil,
        ordering: [QueryOrdering] = [], limit: Int? = nil, offset: Int? = nil
    ) {
        self.entity = entity
        self.columns = columns
        self.condition = condition
        self.ordering = ordering
        self.limit = limit
        self.offset = offset
    }
}
