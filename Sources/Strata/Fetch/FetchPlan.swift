import Foundation

/// A `FetchDescriptor` translated for the store: its predicate as a `QueryExpression`, its sort descriptors as
/// orderings, and the columns to read.
package struct FetchPlan {
    package let entity: Schema.Entity
    package var request: StoreFetch
    /// The sort keys the descriptor asked for (without the insertion-order tie-breaker).
    package let sortOrderings: [QueryOrdering]

    /// Translates a descriptor; a temporary identifier among `permanentIdentifiers`' keys names the row its model
    /// was saved as.
    ///
    /// - Throws: `StrataError.unsupportedPredicate` or `StrataError.unsupportedSortDescriptor` naming what can't
    ///   run in the store, or the format predicate's `PredicateFormatError`.
    package init<T: PersistentModel>(
        _ descriptor: FetchDescriptor<T>, entity: Schema.Entity,
        permanentIdentifiers: [PersistentIdentifier: PersistentIdentifier] = [:]
    ) throws {
        self.entity = entity
        let predicateCondition = try descriptor.predicate.map {
            try PredicateTranslator.translate($0, entity: entity, permanentIdentifiers: permanentIdentifiers)
        }
        let formatCondition = try descriptor.formatPredicate.map { try FormatTranslator.translate($0, entity: entity) }
        let conditions = [predicateCondition, formatCondition].compactMap { $0 }
        let condition = conditions.count > 1 ? .and(conditions) : conditions.first
        var ordering = try descriptor.sortBy.map { try Self.ordering(for: $0, entity: entity) }
        ordering += try descriptor.sortDescriptors.map { try $0.ordering(for: entity) }
        self.sortOrderings = ordering
        // Rows that tie on every sort key come back in insertion order, so results are deterministic.
        ordering.append(
            QueryOrdering(expression: .column(StoreLayout.primaryKeyColumn), ascending: true, collation: .binary))
        var columns = entity.columnPropertyIndexes
        if !descriptor.propertiesToFetch.isEmpty {
            columns = try descriptor.propertiesToFetch.map { keyPath in
                guard let property = entity.property(for: keyPath), property.relationshipDestination?.isToMany != true
                else {
                    throw StrataError.unsupportedPredicate(
                        expression: "propertiesToFetch \(keyPath)",
                        reason: "not a persistent property of \(entity.name)")
                }
                return property.index
            }
            // A model's `let` properties are set as it is made, so they are always read with its row.
            columns = Array(Set(columns + entity.constantPropertyIndexes)).sorted()
        }
        if let limit = descriptor.fetchLimit, limit < 0 {
            throw StrataError.unsupportedPredicate(
                expression: "fetchLimit \(limit)", reason: "a limit can't be negative")
        }
        if let offset = descriptor.fetchOffset, offset < 0 {
            throw StrataError.unsupportedPredicate(
                expression: "fetchOffset \(offset)", reason: "an offset can't be negative")
        }
        self.request = StoreFetch(
            entity: entity, columns: columns, condition: condition, ordering: ordering,
            limit: descriptor.fetchLimit, offset: descriptor.fetchOffset)
        self.request.descriptor = descriptor
    }
}
