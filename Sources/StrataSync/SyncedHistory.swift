import Strata

/// What a run of history transactions changed in the synced entities: the rows inserted or updated, by key, with
/// the properties changed (all of them for an insert), and the identities of rows deleted. Sending reads it from the
/// local store's history, fetching from the hub's.
struct SyncedHistory {
    /// The newest transaction read (`0`: none).
    var through: Int64 = 0
    /// The rows inserted or updated, by entity name and key, with the properties changed.
    var changedKeys: [String: [Int64: Set<Int>]] = [:]
    /// The identities of rows deleted, by entity name.
    var deleted: [String: [StoredValue]] = [:]
    /// How many of the transactions read were admitted.
    var transactionCount = 0
    /// The rows inserted, by entity name and key.
    var insertedKeys: [String: Set<Int64>] = [:]

    /// Collects the changes of `transactions` that `includes` admits.
    init(
        _ transactions: [StoredHistoryTransaction], entities: [String: SyncedEntity],
        including includes: (StoredHistoryTransaction) -> Bool
    ) {
        through = transactions.last?.identifier ?? 0
        for transaction in transactions where includes(transaction) {
            transactionCount += 1
            for change in transaction.changes {
                guard let synced = entities[change.entityName] else { continue }
                switch change.kind {
                case .insert:
                    insertedKeys[change.entityName, default: []].insert(change.primaryKey)
                    changedKeys[change.entityName, default: [:]][change.primaryKey, default: []]
                        .formUnion(synced.trackedIndexes)
                case .update(let names):
                    changedKeys[change.entityName, default: [:]][change.primaryKey, default: []]
                        .formUnion(synced.trackedIndexes(named: names))
                case .delete(let tombstone):
                    if let identity = tombstone[synced.identityName] {
                        deleted[change.entityName, default: []].append(identity)
                    }
                }
            }
        }
    }

    /// The changes as they are now in `context`'s store: each changed row read whole, with the properties the
    /// history changed and whether it inserted the row, and each deleted identity as it is. Entities without changes
    /// are left out.
    func changes(of entities: [SyncedEntity], in context: ModelContext) throws -> [String: SyncedChanges] {
        var changes: [String: SyncedChanges] = [:]
        for synced in entities {
            let name = synced.entity.name
            let keys = changedKeys[name] ?? [:]
            var entityChanges = SyncedChanges(deletedIdentities: deleted[name] ?? [])
            if !keys.isEmpty {
                let inserted = insertedKeys[name] ?? []
                entityChanges.rows = try synced.rows(withKeys: Array(keys.keys), in: context).map { key, row in
                    var row = row
                    row.changed = (keys[key] ?? []).filter { synced.links[$0] == nil }
                    row.isInsert = inserted.contains(key)
                    return row
                }
            }
            if !entityChanges.isEmpty { changes[synced.entity.name] = entityChanges }
        }
        return changes
    }
}
