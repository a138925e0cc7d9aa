// Faulting: a model whose properties were not all read (a fault the context made for a related row, or a fetch
// with `propertiesToFetch`) loads them on first use of any, through its context (every fault of the entity it
// holds, in one query) or, with no context, from its store.
//
// A fault that can't be fulfilled is never passed over in silence. When the read fails (the store is
// unreachable, its table is gone), the properties stay unloaded, so a later use reads them again, and read as
// empty values meanwhile; the failure is logged (`StrataLog`, category `fault`), kept in the context's
// `faultError`, and thrown by a save of the model, which writes nothing it could not read. An assignment made
// meanwhile is kept: the read that succeeds later fills in only the other properties. When the row is gone
// (another context or process deleted it), the model becomes the stand-in for a row that is gone that a reload
// makes: `isDeleted`, no context, empty values.
extension ModelBackingData {
    /// Reads the properties not read yet (a fault's, or those `propertiesToFetch` left out), in one query.
    @usableFromInline
    package func loadUnloadedProperties() {
        guard let missing = unloadedProperties, let store, let entity, let primaryKey else {
            unloadedProperties = nil
            return
        }
        // A fault: fill in every fault of the entity the context holds, in one query. A model assigned to after
        // a failed read reads its own row below, which keeps what was assigned.
        if missing.count == entity.columnPropertyIndexes.count, !hasSavedValues, let context,
            context.fulfillFaults(of: entity, including: self)
        {
            if let sideState, sideState.faultFailure != nil { sideState.faultFailure = nil }
            return
        }
        let columns = missing.sorted()
        // A model a fetch read with some properties (`propertiesToFetch`): the other models of that fetch are read
        // with the same ones, and a list reading one more property of each would read their rows one at a time.
        if !hasSavedValues, let context, context.loadMissingProperties(columns, of: entity, including: self) {
            if let sideState, sideState.faultFailure != nil { sideState.faultFailure = nil }
            return
        }
        var found = false
        do {
            try store.readColumns(columns, ofRow: primaryKey, in: entity) { offset, value in
                found = true
                fillUnloadedProperty(columns[offset], with: value, of: entity)
            }
        } catch {
            faultCouldNotBeFulfilled(
                .storeFailure(
                    operation: "read the properties of \(entity.name)/\(primaryKey) (a fault)",
                    reason: StrataError(error)?.description ?? "\(error)"),
                rowIsGone: false)
            return
        }
        unloadedProperties = nil
        if let sideState, sideState.faultFailure != nil { sideState.faultFailure = nil }
        if !found, state == .registered || state == .deleted {
            faultCouldNotBeFulfilled(
                .storeFailure(
                    operation: "read the properties of \(entity.name)/\(primaryKey) (a fault)",
                    reason: "its row is no longer in the store (another context or process deleted it)"),
                rowIsGone: true)
        }
    }

    /// Puts the values read from the row in place of the unloaded properties at `columns`, which are all the
    /// properties this model misses: `value(offset)` is the value of `columns[offset]`.
    package func fillUnloadedProperties(
        _ columns: [Int], of entity: Schema.Entity, value: (_ offset: Int) -> StoredValue
    ) {
        for offset in columns.indices { fillUnloadedProperty(columns[offset], with: value(offset), of: entity) }
        unloadedProperties = nil
    }

    /// Puts `value`, read from the row, in place of unloaded property `index`. A value that doesn't fit the
    /// property leaves it as it was (the row was validated when first fetched). A property assigned after a
    /// failed read keeps what was assigned, and the row's value becomes the saved value it changed from.
    private func fillUnloadedProperty(_ index: Int, with value: StoredValue, of entity: Schema.Entity) {
        let property = entity.persistentProperties[index]
        guard property.relationshipDestination != nil || property.accepts(value) else { return }
        if let saved = savedValues[index] {
            guard saved != value else { return }
            if values[index] == value { savedValues[index] = nil } else { savedValues[index] = value }
            return
        }
        values[index] = value
        // A read while the fault could not be fulfilled may have kept the decoded empty value.
        if !decodedValues.isEmpty { decodedValues[index] = nil }
    }

    /// Makes a fault that can't be fulfilled visible: logged once until a read succeeds, kept for `save()` (a
    /// failed read), told to the context, which keeps it in `faultError`. A model whose row is gone reads as deleted.
    private func faultCouldNotBeFulfilled(_ error: StrataError, rowIsGone: Bool) {
        let isNew = sideState?.faultFailure == nil
        if rowIsGone {
            unloadedProperties = nil
            if let sideState { sideState.faultFailure = nil }
            if state == .registered { state = .deletedAndSaved }
        } else {
            ensuredSideState.faultFailure = error
        }
        if isNew || rowIsGone {
            var metadata = ["entity": entity?.name ?? "", "error": error.description]
            if let primaryKey { metadata["primaryKey"] = String(primaryKey) }
            StrataLog.log(
                rowIsGone ? .warning : .error,
                rowIsGone
                    ? "a model's row is gone from the store; it reads as deleted"
                    : "a model's properties could not be read from the store; they read as empty values until a read succeeds",
                metadata: metadata, category: "fault")
        }
        context?.faultCouldNotBeFulfilled(self, error: error, rowIsGone: rowIsGone)
    }

    /// Reads again the properties of a model whose last read failed, before a save writes it.
    /// - Throws: the read's failure, when it fails again: a save must not write a model it could not read.
    package func rereadAfterFailedFault() throws {
        guard let failure = sideState?.faultFailure else { return }
        if unloadedProperties != nil { loadUnloadedProperties() }
        if unloadedProperties != nil { throw sideState?.faultFailure ?? failure }
        sideState?.faultFailure = nil
    }
}
