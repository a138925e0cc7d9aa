extension ModelContext {
    /// Keeps the row `primaryKey` of `entity` out of every pending `delete(model:where:)` of that entity: its model
    /// was deleted by one of them, then inserted again (deleting all sample data, then inserting the same sample
    /// models), so the save must leave it stored and write its changes. Batch deletes made after this insert
    /// delete it again when they match.
    func keepFromPendingBatchDeletes(_ primaryKey: Int64, of entity: Schema.Entity) {
        for (position, batch) in pendingBatchDeletes.enumerated() where batch.entity === entity {
            batchDeleteKeptKeys[position, default: []].append(primaryKey)
        }
    }

    /// The pending batch deletes as the store writes them: each one's condition leaves out the rows of models
    /// inserted again after it, in lists of at most `StoreLimits.keysPerStatement` keys.
    var batchDeletesToWrite: [StoreChanges.BatchDelete] {
        guard !batchDeleteKeptKeys.isEmpty else { return pendingBatchDeletes }
        return pendingBatchDeletes.enumerated().map { position, batch in
            guard let kept = batchDeleteKeptKeys[position]?.sorted() else { return batch }
            var conditions = batch.condition.map { [$0] } ?? []
            for start in stride(from: 0, to: kept.count, by: StoreLimits.keysPerStatement) {
                let keys = kept[start..<Swift.min(start + StoreLimits.keysPerStatement, kept.count)].map {
                    QueryExpression.value(.integer($0))
                }
                conditions.append(.not(.in(.column(StoreLayout.primaryKeyColumn), keys)))
            }
            var refined = batch
            refined.condition = conditions.count == 1 ? conditions[0] : .and(conditions)
            return refined
        }
    }
}
