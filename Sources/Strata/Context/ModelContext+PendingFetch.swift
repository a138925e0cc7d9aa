import Foundation

/// The unsaved changes of one entity that a fetch merges into the store's rows.
struct PendingFetchChanges<T: PersistentModel> {
    /// The stored rows whose saved values no longer count: changed models (judged by their current values
    /// instead) and deleted ones.
    let removedKeys: SortedKeys
    /// Changed models followed by unsaved inserts in insertion order: the models judged in memory.
    let candidates: [T]
    /// The store condition leaving out rows that pending `delete(model:where:)` calls will remove.
    let storeCondition: QueryExpression?

    init(in context: ModelContext, plan: FetchPlan) {
        var removed: [Int64] = []
        removed.reserveCapacity(context.changedModels.count + context.deletedModels.count)
        let inserted = context.insertedModels
        // Collected as existentials: appending to a `[T]` here would run unspecialized, looking up generic metadata
        // for every model. Changed models come in no particular order: each has its row's key, which orders ties
        // (`StoreOrder.precedes(_:_:)`) as the store will once they are saved.
        let collector = ModelCollector(capacity: context.changedModels.count + inserted.count)
        for model in context.changedModels.values where model is T {
            collector.append(model)
            if let key = model.persistentBackingData.primaryKey { removed.append(key) }
        }
        for model in context.deletedModels.values where model is T {
            if let key = model.persistentBackingData.primaryKey { removed.append(key) }
        }
        for model in inserted where model is T { collector.append(model) }
        removedKeys = SortedKeys(removed)
        candidates = collector.take(as: T.self)
        // A batch delete removes the rows its condition holds for; an unknown (NULL) condition keeps the row.
        // In a hierarchy, a batch delete of any of its entities may remove rows of this one (a subentity's, only its
        // own rows: its entity filter is part of its condition).
        let kept = context.batchDeletesToWrite.filter {
            $0.entity === plan.entity || $0.entity.identityKey == plan.entity.identityKey
        }
        .map { batch -> QueryExpression in
            guard let condition = batch.entity.restricting(batch.condition) else { return .constant(false) }
            return .or([.not(condition), .isNull(condition)])
        }
        let conditions = [plan.request.condition].compactMap { $0 } + kept
        storeCondition = conditions.count > 1 ? .and(conditions) : conditions.first
    }

    /// The candidates that match the fetch's condition, judged by their current values as the store judges rows.
    ///
    /// - Throws: as `QueryEvaluator.isSatisfied(_:)`.
    func matchingCandidates(_ plan: FetchPlan) throws -> [T] {
        guard let condition = plan.request.condition else { return candidates }
        let columns = QueryEvaluator.Columns(entity: plan.entity)
        return try candidates.filter {
            try QueryEvaluator(entity: plan.entity, backingData: $0.persistentBackingData, columns: columns)
                .isSatisfied(condition)
        }
    }
}

extension ModelContext {
    /// A fetch with unsaved changes of its entity: reads at most offset + limit rows from the store, in the store's
    /// order, the store leaving out the changed and deleted rows as it reads them (``StoreFetch/excludedKeys``),
    /// then merges in the changed and inserted models that match, ordered as `ORDER BY` will order them once saved
    /// (those that sort after a full page's last row are not judged).
    func fetchMergingPendingChanges<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, plan: FetchPlan) throws -> [T]
    {
        let pending = PendingFetchChanges<T>(in: self, plan: plan)
        let offset = descriptor.fetchOffset ?? 0
        // How many merged results are needed; `nil` for all of them.
        let wanted = descriptor.fetchLimit.map { Self.saturatingSum(offset, $0) }
        var request = plan.request
        request.condition = pending.storeCondition
        request.offset = nil
        request.limit = wanted
        request.excludedKeys = pending.removedKeys
        // The store leaves the removed rows out; a registered model whose row a fault's read found gone reads as
        // deleted, and is left out too.
        var foundDeleted = false
        var stored: [T] = try models(
            request, each: { foundDeleted = foundDeleted || $0.persistentBackingData.isDeleted })
        if foundDeleted { stored.removeAll { $0.persistentBackingData.isDeleted } }
        let merged = try plan.mergeInMemory(stored: stored, candidates: pending.candidates, count: wanted)
        guard offset < merged.count else { return [] }
        return Array(merged[offset...])
    }

    /// `fetchCount` with unsaved changes of its entity: the store's count, less the changed and deleted rows it
    /// counted, plus the changed and inserted models that match; no model is read from the store.
    func countMergingPendingChanges<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, plan: FetchPlan) throws -> Int
    {
        let pending = PendingFetchChanges<T>(in: self, plan: plan)
        var request = plan.request
        request.condition = pending.storeCondition
        request.ordering = []
        request.limit = nil
        request.offset = nil
        var count = try store.count(request)
        let removed = pending.removedKeys.sorted
        for start in stride(from: 0, to: removed.count, by: StoreLimits.keysPerStatement) {
            request.keyFilter = (
                StoreLayout.primaryKeyColumn,
                Array(removed[start..<Swift.min(start + StoreLimits.keysPerStatement, removed.count)])
            )
            count -= try store.count(request)
        }
        count += try pending.matchingCandidates(plan).count
        let offset = descriptor.fetchOffset ?? 0
        let available = Swift.max(0, count - offset)
        return descriptor.fetchLimit.map { Swift.min($0, available) } ?? available
    }

    private static func saturatingSum(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : sum
    }
}
