import Strata

extension SyncedEntity {
    /// The identities of the rows `changes` points to — to-one targets and linked rows — by destination entity.
    func referencedIdentities(in changes: SyncedChanges) -> [String: Set<StoredValue>] {
        var referenced: [String: Set<StoredValue>] = [:]
        for row in changes.rows {
            for (index, reference) in references {
                guard let target = row.values[index], target != .null else { continue }
                referenced[reference.destination, default: []].insert(target)
            }
        }
        for edit in changes.links {
            guard let link = links[edit.index] else { continue }
            referenced[link.destination, default: []].formUnion([edit.base ?? [], edit.added].joined())
        }
        return referenced
    }
}

/// Completes a run of changes with the rows it points to that the other side lacks.
enum ReferencedRows {
    /// Adds to `changes` each row a changed row points to (a to-one target or a linked row) that `destination`'s
    /// store doesn't hold and `source`'s does (among the rows `admits` admits, by entity name and key in `source`),
    /// whole, as an insert that changed nothing (so it meets no conflict), and then the rows those point to, until
    /// none is missing. Rows are read as they are now, so a row can point to one inserted after the history that
    /// named it: sent or fetched together, the target is there when the relationship is set. A target neither side
    /// holds was deleted, and the relationship goes with it.
    static func add(
        to changes: inout [String: SyncedChanges], of entities: [String: SyncedEntity], from source: ModelContext,
        missingIn destination: ModelContext, admitting admits: (String, Int64) throws -> Bool = { _, _ in true }
    ) throws {
        var checked: [String: Set<StoredValue>] = [:]
        for (name, entityChanges) in changes {
            checked[name, default: []].formUnion(entityChanges.rows.map(\.identity))
        }
        var pending = changes
        while !pending.isEmpty {
            var wanted: [String: Set<StoredValue>] = [:]
            for (name, entityChanges) in pending {
                guard let synced = entities[name] else { continue }
                for (destination, identities) in synced.referencedIdentities(in: entityChanges) {
                    let new = identities.subtracting(checked[destination] ?? [])
                    if !new.isEmpty { wanted[destination, default: []].formUnion(new) }
                }
            }
            pending = [:]
            for (name, identities) in wanted {
                guard let synced = entities[name] else { continue }
                checked[name, default: []].formUnion(identities)
                let there = try synced.models(withIdentities: Array(identities), in: destination)
                let missing = identities.filter { there[$0] == nil }
                guard !missing.isEmpty else { continue }
                let keys = try synced.models(withIdentities: Array(missing), in: source).values.compactMap {
                    $0.persistentBackingData.primaryKey
                }.filter { try admits(name, $0) }
                let rows = try synced.rows(withKeys: keys, in: source).map { _, row in
                    var row = row
                    row.changed = []
                    row.isInsert = true
                    return row
                }
                guard !rows.isEmpty else { continue }
                changes[name, default: SyncedChanges()].rows += rows
                pending[name] = SyncedChanges(rows: rows)
            }
        }
    }
}
