import Foundation

extension DataStoreAdapter {
    /// Applies the changes to a copy of the image (``CustomStoreSave``, in the save sequence's steps), sends the
    /// models they touch to the store as one `DataStoreSaveChangesRequest`, and keeps the copy only once the store
    /// has saved: a store that throws leaves the image, and the saving context, as they were.
    ///
    /// A custom store keeps no row versions and no unique constraints Strata can see: the merge policy doesn't
    /// apply, and inserts are always new models. The store's own save commits by itself, so `beforeCommit` runs
    /// just before it.
    func save(
        _ changes: StoreChanges, mergePolicy: MergePolicy, beforeCommit: () throws -> Void
    ) throws -> StoreSaveResult {
        if let condition = changes.conditions.first {
            throw StrataError.storeFailure(
                operation: "save",
                reason: "a third-party DataStore can't run a save's SQL condition (\(condition.description))")
        }
        return try locked {
            try readUnreadEntities()
            var save = CustomStoreSave(image: image, schema: schema)
            try save.apply(changes)
            let (inserted, updated) = save.snapshots(of: changes.inserts, alsoTouched: staleReferences)
            var result = StoreSaveResult()
            result.batchDeletedKeys = save.batchDeletedKeys
            try beforeCommit()
            guard !(inserted.isEmpty && updated.isEmpty && save.deleted.isEmpty) else {
                image = save.image
                return result
            }
            let (remapped, reregistered) = try send(
                inserted: inserted, updated: updated, deleted: save.deleted, author: changes.author)
            save.record(remapped: remapped, reregistered: reregistered)
            image = save.image
            staleReferences = []
            resendReferencesToInsertedModels(in: inserted + updated, remapped: remapped, author: changes.author)
            result.insertedKeys = save.insertedKeys
            return result
        }
    }

    /// The store named the inserted models; models saved pointing at them under their temporary identifiers are
    /// sent again with the permanent ones, so the store's data is whole on its own. A failure leaves the save
    /// done and the rows noted in `staleReferences`, sent again with the next save.
    private func resendReferencesToInsertedModels(
        in sent: [DefaultSnapshot], remapped: [PersistentIdentifier: PersistentIdentifier], author: String?
    ) {
        let referencing = sent.filter { snapshot in
            snapshot.values.values.contains { value in
                switch value {
                case .attribute: false
                case .toOne(let target): target?.isTemporary == true
                case .toMany(let targets): targets.contains(where: \.isTemporary)
                }
            }
        }
        guard !referencing.isEmpty else { return }
        let rows = referencing.compactMap { snapshot -> CustomStoreImage.RowID? in
            let permanent = remapped[snapshot.persistentIdentifier] ?? snapshot.persistentIdentifier
            return image.keys[permanent].map { CustomStoreImage.RowID(entity: permanent.entityName, key: $0) }
        }
        let rewritten = rows.compactMap { row in
            schema.entity(named: row.entity).flatMap { image.snapshot(of: row.key, in: $0, temporary: [:]) }
        }
        do {
            let (_, reregistered) = try send(inserted: [], updated: rewritten, deleted: [], author: author)
            for snapshot in reregistered {
                guard let entity = schema.entity(named: snapshot.persistentIdentifier.entityName) else { continue }
                image.merge(snapshot, entity: entity)
            }
        } catch {
            staleReferences = Set(rows)
            StrataLog.log(
                .warning,
                "\(Store.self) \(identifier) saved the models but not yet the permanent identifiers of the new models they refer to; the next save writes them: \(error)",
                category: "store")
        }
    }

    /// Sends one save to the store.
    /// - Returns: the permanent identifier of each inserted model, by temporary identifier, and the snapshots the
    ///   store asks to register again (values it computed).
    /// - Throws: the store's error as `StrataError.storeFailure`.
    private func send(
        inserted: [DefaultSnapshot], updated: [DefaultSnapshot], deleted: [DefaultSnapshot],
        author: String?
    ) throws -> ([PersistentIdentifier: PersistentIdentifier], [DefaultSnapshot]) {
        let request = DataStoreSaveChangesRequest(
            editingState: EditingState(author: author), inserted: inserted, updated: updated, deleted: deleted)
        guard let typed = request as? DataStoreSaveChangesRequest<Store.Snapshot> else { return ([:], []) }
        let result: DataStoreSaveChangesResult<Store.Snapshot>
        do {
            result = try store.save(typed)
        } catch {
            throw storeError(error, operation: "save")
        }
        return (result.remappedIdentifiers, result.snapshotsToReregister.values.compactMap { $0 as? DefaultSnapshot })
    }
}
