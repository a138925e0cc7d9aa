extension RoutedStore {
    /// Splits `changes` into each member's share and writes the shares nested: each store writes its share and,
    /// before committing, has the next store write and commit its own. A failure anywhere before the last commit
    /// rolls every share back, so the save is all-or-nothing across stores that hold their transaction open
    /// around the call (SQLite, PostgreSQL; those come first). Only a failure of a store's own commit after the
    /// stores after it committed, or of a custom store while another custom store already saved, leaves some
    /// shares written: the error then names the configurations whose changes were committed.
    ///
    /// - Throws: `StrataError.readOnlyContainer` when a share goes to a store that allows no saves (nothing is
    ///   written); whatever a member throws; `StrataError.storeFailure` naming what was written after a partial
    ///   commit.
    package func save(
        _ changes: StoreChanges, mergePolicy: MergePolicy, beforeCommit: () throws -> Void
    ) throws -> StoreSaveResult {
        let split = SplitChanges(changes, members: members.count, memberIndex: memberIndex(for:))
        for (index, share) in split.shares.enumerated() where share.writesRows && members[index].store.isReadOnly {
            throw StrataError.readOnlyContainer(
                operation:
                    "save changes to \(share.entityNames), which configuration '\(members[index].configurationName)' "
                    + "stores and doesn't allow saves (allowsSave: false); nothing was written")
        }
        let order = writeOrder.filter { split.shares[$0].writesRows }
        var results = [StoreSaveResult?](repeating: nil, count: members.count)
        var committed: [Int] = []
        func write(from position: Int) throws {
            guard position < order.count else { return try beforeCommit() }
            let index = order[position]
            results[index] = try members[index].store.save(
                split.shares[index], mergePolicy: mergePolicy, beforeCommit: { try write(from: position + 1) })
            committed.append(index)
        }
        do {
            try write(from: 0)
        } catch {
            guard !committed.isEmpty else { throw error }
            let written = committed.map { "'\(members[$0].configurationName)'" }.joined(separator: ", ")
            throw StrataError.storeFailure(
                operation: "save",
                reason:
                    "\(error); the changes to the models of configuration \(written) were committed before this "
                    + "failure and the rest were not written (fetch again before saving those changes once more)")
        }
        return split.merge(results)
    }
}

/// One save's changes cut into a share per member store, with the way back from each share's results to the
/// save's own order.
struct SplitChanges {
    /// Each member's share, by member position.
    private(set) var shares: [StoreChanges]
    /// Where each insert of the save went: member and position in that member's inserts.
    private var insertPlaces: [(member: Int, position: Int)] = []
    /// Where each batch delete of the save went.
    private var batchDeletePlaces: [(member: Int, position: Int)] = []

    init(_ changes: StoreChanges, members: Int, memberIndex: (Schema.Entity) -> Int) {
        var shares = [StoreChanges](repeating: StoreChanges(), count: members)
        for index in shares.indices { shares[index].author = changes.author }
        for condition in changes.conditions { shares[memberIndex(condition.entity)].conditions.append(condition) }
        for insert in changes.inserts {
            let member = memberIndex(insert.entity)
            insertPlaces.append((member, shares[member].inserts.count))
            shares[member].inserts.append(insert)
        }
        let places = insertPlaces
        func local(_ reference: StoreChanges.RowReference) -> StoreChanges.RowReference {
            guard case .inserted(let position) = reference else { return reference }
            return .inserted(places[position].position)
        }
        for update in changes.foreignKeyUpdates {
            var moved = update
            moved.row = local(update.row)
            moved.target = update.target.map(local)
            shares[memberIndex(update.entity)].foreignKeyUpdates.append(moved)
        }
        for change in changes.joinInserts {
            var moved = change
            (moved.owner, moved.target) = (local(change.owner), local(change.target))
            shares[memberIndex(change.entity)].joinInserts.append(moved)
        }
        for change in changes.joinDeletes {
            var moved = change
            (moved.owner, moved.target) = (local(change.owner), local(change.target))
            shares[memberIndex(change.entity)].joinDeletes.append(moved)
        }
        for update in changes.updates {
            let member = memberIndex(update.entity)
            var moved = update
            let start = shares[member].updateColumns.count
            shares[member].updateColumns.append(contentsOf: changes.updateColumns[update.columns])
            moved.columns = start..<shares[member].updateColumns.count
            shares[member].updates.append(moved)
        }
        for delete in changes.deletes { shares[memberIndex(delete.entity)].deletes.append(delete) }
        for batch in changes.batchDeletes {
            let member = memberIndex(batch.entity)
            batchDeletePlaces.append((member, shares[member].batchDeletes.count))
            shares[member].batchDeletes.append(batch)
        }
        self.shares = shares
    }

    /// The members' results put back in the save's order (`nil` for a member with nothing to write).
    func merge(_ results: [StoreSaveResult?]) -> StoreSaveResult {
        var merged = StoreSaveResult()
        for (index, place) in insertPlaces.enumerated() {
            guard let result = results[place.member], result.insertedKeys.indices.contains(place.position) else {
                continue
            }
            merged.insertedKeys.append(result.insertedKeys[place.position])
            if let version = result.upsertedVersions[place.position] { merged.upsertedVersions[index] = version }
        }
        for place in batchDeletePlaces {
            let keys = results[place.member]?.batchDeletedKeys
            merged.batchDeletedKeys.append(
                keys.flatMap { $0.indices.contains(place.position) ? $0[place.position] : nil } ?? [])
        }
        for result in results.compactMap({ $0 }) {
            merged.resolvedConflicts += result.resolvedConflicts
            merged.cascadeDeletedKeys += result.cascadeDeletedKeys
        }
        return merged
    }
}

extension StoreChanges {
    /// Whether the changes write anything: rows, foreign keys or join rows.
    var writesRows: Bool {
        !isEmpty || !foreignKeyUpdates.isEmpty || !joinInserts.isEmpty || !joinDeletes.isEmpty
    }

    /// The names of the entities the changes touch, for errors: `Component and Symbol`.
    var entityNames: String {
        var names: [String] = []
        let touched =
            deletes.map(\.entity.name) + batchDeletes.map(\.entity.name) + inserts.map(\.entity.name)
            + updates.map(\.entity.name) + joinInserts.map(\.entity.name) + joinDeletes.map(\.entity.name)
            + foreignKeyUpdates.map(\.entity.name)
        for name in touched where !names.contains(name) { names.append(name) }
        guard let last = names.popLast() else { return "its models" }
        return names.isEmpty ? last : names.joined(separator: ", ") + " and " + last
    }
}
