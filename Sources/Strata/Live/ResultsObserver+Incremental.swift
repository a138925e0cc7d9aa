import Foundation

/// What an incremental refresh found.
enum IncrementalOutcome<Element> {
    /// The published results stand as they are.
    case unchanged
    /// The new results.
    case results([Element])
}

extension ResultsObserver {
    /// The most models one incremental refresh loads; a save touching more is refreshed by a full refetch.
    static var incrementalKeyLimit: Int { 500 }

    /// The results after `event`, worked out from the published results and the rows the event names, or `nil`
    /// when the rule for an incremental refresh doesn't hold and the descriptor must run again.
    ///
    /// The rule: incremental refreshes are on; the published results are exactly what the store held (the last
    /// refresh saw no unsaved changes); the context has no unsaved changes of the entity; the descriptor has no
    /// limit, offset, `propertiesToFetch`, prefetching or format predicate/sort; its predicate (if any) and sort
    /// read only the entity's own attributes; and the event names the saved models (a save in this process, or
    /// another's read from the history; not a fallback). Then only the named rows are loaded (one
    /// `WHERE Z_PK IN (…)` query), judged by the query evaluator as the store judges rows (the predicate's
    /// translation, not `Predicate.evaluate`), and put at their sorted place — the order the SQL gives, ties broken
    /// by primary key. A save that only updates rows the results don't show, writing none of the properties the
    /// predicate reads, leaves them as they are without loading anything.
    ///
    /// - Throws: what loading the named rows throws (the errors of `ModelContext.fetch(_:)`).
    func incrementalResults(after event: StoreChangeEvent, entity: Schema.Entity) throws -> IncrementalOutcome<Element>?
    {
        guard refreshesIncrementally, resultsMatchStore, !event.isUnspecific, event.entityNames != nil,
            let rule = incrementalRule, !modelContext.hasPendingChanges(for: entity),
            !rule.mayDeleteUnnamedRows(after: event)
        else { return nil }
        // Decided from the event alone: most observers of an entity show none of a small save's rows.
        if rule.leavesResultsAsTheyAre(after: event, shown: publishedKeys) { return .unchanged }
        let plan = rule.plan
        let touched = rule.primaryKeys(in: event)
        guard touched.count <= Self.incrementalKeyLimit else { return nil }
        guard !touched.isEmpty else { return .unchanged }
        let showsTouchedRow = !touched.isDisjoint(with: publishedKeys)
        // Rows another observer of this context already read for this save are taken from the identity map.
        var loaded: [Element] = []
        var unread: [Int64] = []
        // Looked up in place: a copy of the identity map held across the load below would make it copy itself.
        let entityKey = entity.identityKey
        for key in touched.sorted() {
            if modelContext.isFresh(entity, key, for: event.serial) {
                if let model = modelContext.registry[entityKey, key] as? Element { loaded.append(model) }
            } else {
                unread.append(key)
            }
        }
        if !unread.isEmpty {
            loaded += try modelContext.models(unread, of: Element.self, plan: plan)
            modelContext.markFresh(entity, Set(unread), for: event.serial)
        }
        var matching: [Element] = []
        for model in loaded {
            // Judged as the store judges rows (`Predicate.evaluate` would trap on integer overflow); a condition the
            // evaluator can't judge is left to the store.
            guard
                let matches = try? plan.request.condition.map({
                    try QueryEvaluator(entity: entity, backingData: model.persistentBackingData).isSatisfied($0)
                }) ?? true
            else { return nil }
            if matches { matching.append(model) }
        }
        // The usual case for an observer a save doesn't concern: it shows none of the saved rows and none of them
        // matches now — nothing to rebuild, diff or publish.
        if !showsTouchedRow && matching.isEmpty { return .unchanged }
        var kept: [Element] = []
        kept.reserveCapacity(resultsStorage.count + matching.count)
        for model in resultsStorage {
            guard let key = model.persistentBackingData.primaryKey else { return nil }
            if !touched.contains(key) { kept.append(model) }
        }
        // Placed by the store's order (NaN after every number), which Foundation's comparators don't define.
        let order = StoreOrder(plan)
        for model in matching {
            guard let index = try? Self.insertionIndex(of: model, in: kept, order: order) else { return nil }
            kept.insert(model, at: index)
        }
        return .results(kept)
    }

    /// Where `model` goes in `sorted`: after every model that sorts before it, as the store orders rows — by the
    /// sort keys, then by primary key (the tie-breaker `FetchPlan` adds).
    ///
    /// - Throws: as `StoreOrder.key(of:position:of:)`.
    static func insertionIndex(of model: Element, in sorted: [Element], order: StoreOrder) throws -> Int {
        let key = try order.key(of: model)
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if order.precedes(try order.key(of: sorted[middle]), key) {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low
    }
}

/// The part of the rule for an incremental refresh that depends on the observer's descriptor alone, worked out once
/// when the descriptor is translated rather than after every save.
///
/// A class, so that an observer's refresh after a save takes one reference to it: as a struct, every refresh of every
/// observer copied the translated plan (its descriptor, condition and orderings, a retain for each), which was most of
/// what an observer a save doesn't concern spends.
final class IncrementalRule {
    /// The translated descriptor.
    let plan: FetchPlan
    /// The names of the entity and its subentities: a fetch of the entity returns their rows too.
    let entityNames: Set<String>
    /// The names of the properties the predicate reads (none without one).
    let conditionProperties: Set<String>
    /// Whether deleting a row of another entity may delete rows of this one in the store (`ON DELETE CASCADE`).
    let cascades: Bool

    /// The rule for `descriptor` translated as `plan`, or `nil` when no save can be applied incrementally: the
    /// descriptor has a limit, offset, `propertiesToFetch`, prefetching or a format predicate/sort, or its predicate
    /// or sort reads more than the entity's own attributes.
    init?<Element>(_ descriptor: FetchDescriptor<Element>, plan: FetchPlan?, entity: Schema.Entity) {
        guard descriptor.fetchLimit == nil, (descriptor.fetchOffset ?? 0) == 0, descriptor.propertiesToFetch.isEmpty,
            descriptor.relationshipKeyPathsForPrefetching.isEmpty,
            // Format predicates and sort descriptors have no Swift evaluation that matches the SQL here.
            descriptor.formatPredicate == nil, descriptor.sortDescriptors.isEmpty,
            let plan, plan.request.condition?.readsOnlyAttributes(of: entity) ?? true,
            plan.request.ordering.allSatisfy({ $0.expression.readsOnlyAttributes(of: entity) })
        else { return nil }
        self.plan = plan
        entityNames = Set(entity.selfAndDescendants.map(\.name))
        var read = Set<String>()
        plan.request.condition?.collectColumnNames(into: &read)
        conditionProperties = read
        cascades = entity.relationshipInfos.values.contains { info in
            !info.isToMany && info.inverse?.deleteRule == .cascade
        }
    }

    /// Whether the store itself may have deleted rows the event doesn't name: an `ON DELETE CASCADE` from a deleted
    /// row of another entity reaches rows no context had loaded.
    func mayDeleteUnnamedRows(after event: StoreChangeEvent) -> Bool {
        cascades && event.deleted.contains { !entityNames.contains($0.entityName) }
    }

    /// The primary keys of the entity's rows `event` names as inserted, updated or deleted.
    func primaryKeys(in event: StoreChangeEvent) -> Set<Int64> {
        var keys = Set<Int64>()
        for identifiers in [event.inserted, event.updated, event.deleted] {
            for identifier in identifiers where entityNames.contains(identifier.entityName) {
                if let key = identifier.primaryKey { keys.insert(key) }
            }
        }
        return keys
    }

    /// Whether `event` leaves results showing the rows keyed `shown` as they are, known without reading a row: it
    /// only updates rows of the entity, shows none of them, and wrote none of the properties the predicate reads —
    /// so none of those rows matches now, as none did before.
    func leavesResultsAsTheyAre(after event: StoreChangeEvent, shown: Set<Int64>) -> Bool {
        guard let written = event.updatedProperties,
            !event.inserted.contains(where: { entityNames.contains($0.entityName) }),
            !event.deleted.contains(where: { entityNames.contains($0.entityName) })
        else { return false }
        for identifier in event.updated where entityNames.contains(identifier.entityName) {
            guard let key = identifier.primaryKey, !shown.contains(key),
                written[identifier.entityName]?.isDisjoint(with: conditionProperties) ?? false
            else { return false }
        }
        return true
    }
}
