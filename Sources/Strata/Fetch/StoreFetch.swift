/// A fetch in store-neutral terms: what a ``FetchPlan`` asks a store for (`PersistentStore.fetch`).
package struct StoreFetch: Sendable {
    package var entity: Schema.Entity
    /// The properties to read (by index); `nil` reads only the primary key.
    package var columns: [Int]?
    package var condition: QueryExpression?
    /// Restricts the rows to those whose `column` (the primary key or a foreign key) is one of `keys`,
    /// in addition to `condition`.
    package var keyFilter: (column: String, keys: [Int64])?
    /// Primary keys of rows left out of the results although they match (the rows of models the context has
    /// changed or deleted since they were saved). `limit` and `offset` count the rows kept. The statement stays the
    /// same whatever the keys: SQLite's names them in one bound value (``SelectWriter/primaryKeyExclusion(_:)``);
    /// other stores read ``rowsToRead`` rows and leave these out as they go (``FetchRowWindow``).
    package var excludedKeys: SortedKeys = []
    package var ordering: [QueryOrdering]
    package var limit: Int?
    package var offset: Int?
    /// The app's `FetchDescriptor` this fetch was planned from (`nil` for the context's own reads: faults,
    /// relationships), for a custom store, which is asked in SwiftData's terms.
    package var descriptor: (any Sendable)?
    /// Restricts the rows to those whose primary key is greater than this, in addition to `condition` (each page of
    /// `enumerate` in key order starts after the last key of the one before). The key is bound as the statement's
    /// first value (``startAfterKeyBinding``), so every page runs the same statement text and one kept statement
    /// serves every key (`FetchStatementCache`).
    package var startAfterKey: Int64?

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

extension StoreFetch {
    /// The position of ``startAfterKey`` among the values bound to a fetch's statement (``SelectStatement/rows(_:)``,
    /// ``SelectStatement/count(_:)``): the first, since nothing before the `WHERE` binds a value and the key's
    /// comparison opens it. A statement rendered for one key runs for another with this value replaced
    /// (`FetchStatementCache`).
    package static var startAfterKeyBinding: Int { 0 }

    /// How many rows the statement reads: `limit` plus `offset`, and as many more as there are excluded keys (each
    /// may be among them); `nil` for all of them.
    package var rowsToRead: Int? {
        guard let limit else { return nil }
        guard !excludedKeys.isEmpty else { return limit }
        let (withOffset, overflow) = limit.addingReportingOverflow(offset ?? 0)
        let (total, overflowAgain) = withOffset.addingReportingOverflow(excludedKeys.count)
        return overflow || overflowAgain ? nil : total
    }

    /// The offset the statement skips itself: none when keys are excluded, since the rows it would skip could be
    /// excluded ones (``FetchRowWindow`` skips the offset then).
    package var statementOffset: Int? {
        excludedKeys.isEmpty ? offset : nil
    }
}
