/// What a store's SQL dialect supplies to ``SelectStatement``: its rendering of conditions and sort keys, and the
/// few clauses engines spell differently. The statement's shape is written once, in ``SelectStatement``.
package protocol SelectWriter {
    /// A `WHERE` condition.
    /// - Throws: `StrataError.unsupportedPredicate` when the engine can't run it.
    func condition(_ expression: QueryExpression) throws -> SQLFragment

    /// One key of an `ORDER BY`, with its collation and direction, on a column or expression of `entity`.
    /// - Throws: `StrataError.unsupportedSortDescriptor` when the engine can't sort by it.
    func orderingKey(_ ordering: QueryOrdering, of entity: Schema.Entity) throws -> SQLFragment

    /// A value (a column, an attribute, a to-one path) as a select-list item or an aggregate's operand.
    /// - Throws: `StrataError.unsupportedPredicate` when the engine can't compute it.
    func value(_ expression: QueryExpression) throws -> SQLFragment

    /// An aggregate function over the rows of a group, of `operand`.
    /// - Throws: `StrataError.unsupportedPredicate` when the engine can't compute the operand.
    func aggregate(_ aggregate: QueryAggregate, of operand: QueryExpression) throws -> SQLFragment

    /// Whether every sort ends on the primary key, so rows that tie come back in one order on every run (an
    /// engine whose table order changes as rows are updated needs it).
    var breaksTiesByPrimaryKey: Bool { get }

    /// Appends the `LIMIT` and `OFFSET` clauses of a fetch that has either.
    func appendLimit(_ limit: Int?, offset: Int?, to sql: inout SQLFragment)

    /// The condition that leaves out the rows whose primary key is one of `keys` (``StoreFetch/excludedKeys``),
    /// the keys bound as one value, so the statement's text is the same whatever they are; `nil` when the engine
    /// can't, and its store leaves them out as it reads the rows (``FetchRowWindow``).
    func primaryKeyExclusion(_ keys: SortedKeys) -> SQLFragment?
}

extension SelectWriter {
    package var breaksTiesByPrimaryKey: Bool { false }

    package func primaryKeyExclusion(_ keys: SortedKeys) -> SQLFragment? { nil }
}
