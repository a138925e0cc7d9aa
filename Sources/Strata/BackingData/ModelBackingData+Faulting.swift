// Faulting: a model whose properties were not all read (a fault the context made for a related row, or a fetch
// with `propertiesToFetch`) loads them on first use of any, through its context (every fault of the entity it
// holds, in one query) or, with no context, from its store.
extension ModelBackingData {
    /// Reads the properties that `propertiesToFetch` left out, in one query.
    @usableFromInline
    package func loadUnloadedProperties() {
        guard let missing = unloadedProperties, let store, let entity, let primaryKey else {
            unloadedProperties = nil
            return
        }
        // A fault: fill in every fault of the entity the context holds, in one query.
        if missing.count == entity.columnPropertyIndexes.count, let context,
            context.fulfillFaults(of: entity, including: self)
        {
            return
        }
        let columns = missing.sorted()
        // A failed read leaves the values as they were; the row was validated when first fetched.
        try? store.readColumns(columns, ofRow: primaryKey, in: entity) { offset, value in
            let index = columns[offset]
            let property = entity.persistentProperties[index]
            if property.relationshipDestination != nil || property.accepts(value) { values[index] = value }
        }
        unloadedProperties = nil
    }
}
