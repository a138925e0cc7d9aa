/// What each step of a save did to stored rows, in order, kept as the history records it: the rows deleted (with
/// their `.preserveValueOnDeletion` values), updated (with the names of the properties written), inserted, and
/// the stored rows whose relationships changed. ``historyRows()`` derives the save's history rows from it, for
/// every store alike.
///
/// Cheap by construction: a run of changes of one kind, entity and attribute list is one entry as it is noted
/// (its keys appended to a ``HistoryKeyList``). A foreign key written by its row's update is named with the
/// update's attributes; only a relationship change noted on its own (a join-table row, a key written after the
/// inserts) splits the updates into an entry per row, so its name can join its row's update.
package struct SaveJournal {
    /// Whether each update is an entry of its own, found by row in `updates`: from the first relationship change
    /// noted on its own.
    private var indexesUpdates = false
    private var entries: [Entry] = []
    /// How many changes (rows) have been noted: the position of the next one.
    private var noted: Int64 = 0
    private var tombstones: [HistoryTombstoneRow] = []
    /// Where each row's update is in `entries` (once `indexesUpdates`).
    private var updates: [RowKey: Int] = [:]

    /// An empty journal.
    package init() {}

    /// Consecutive changes of one kind, entity and attribute list, from position `position`.
    private struct Entry {
        let kind: HistoryTables.Kind
        let entity: Schema.Entity
        let position: Int64
        let row: Int64
        var attributes: String?
        var count: Int64 = 1
        var keys: HistoryKeyList

        init(_ kind: HistoryTables.Kind, _ entity: Schema.Entity, position: Int64, row: Int64, attributes: String?) {
            (self.kind, self.entity, self.position, self.row, self.attributes) = (
                kind, entity, position, row, attributes
            )
            keys = HistoryKeyList(first: row)
        }

        /// The history row of this entry's changes, numbered from `position`.
        func historyRow(at position: Int64) -> HistoryChangeRow {
            HistoryChangeRow(
                position: position, kind: kind, entity: entity.name, row: row, count: count, attributes: attributes,
                keys: keys.stored)
        }

        /// Whether `other` follows this entry in one history row.
        func joins(_ other: Entry) -> Bool {
            other.kind == kind && other.entity === entity && other.attributes == attributes
        }

        /// Appends the rows of `other` (which `joins` this entry).
        mutating func append(_ other: Entry) {
            if other.count == 1 {
                keys.append(other.row)
            } else {
                keys.append(
                    contentsOf: HistoryKeyList.keys(first: other.row, count: other.count, list: other.keys.stored)[...])
            }
            count += other.count
        }
    }

    private struct RowKey: Hashable {
        let entity: ObjectIdentifier
        let row: Int64
    }

    /// Notes an inserted row.
    package mutating func inserted(_ entity: Schema.Entity, row: Int64) {
        note(.insert, entity, row: row, attributes: nil)
    }

    /// Notes an updated row and the properties written (their names, comma-separated: ``Schema/Entity/historyAttributeNames(_:)``).
    package mutating func updated(_ entity: Schema.Entity, row: Int64, attributes: String) {
        note(.update, entity, row: row, attributes: attributes)
    }

    /// Notes a deleted row with its preserved values (the entity's `preservedPropertyIndexes`' values, in that
    /// order; empty when it has none).
    package mutating func deleted(_ entity: Schema.Entity, row: Int64, preserved values: [StoredValue]) {
        let position = noted
        note(.delete, entity, row: row, attributes: nil)
        for (index, value) in zip(entity.preservedPropertyIndexes, values) {
            tombstones.append(
                HistoryTombstoneRow(position: position, name: entity.persistentProperties[index].name, value: value))
        }
    }

    /// Notes the deletion of `rows`, in order, none with preserved values: one run, extended without a check per row.
    package mutating func deleted(_ entity: Schema.Entity, rows: [Int64]) {
        guard let first = rows.first else { return }
        note(.delete, entity, row: first, attributes: nil)
        let last = entries.count - 1
        entries[last].keys.append(contentsOf: rows.dropFirst())
        entries[last].count += Int64(rows.count - 1)
        noted += Int64(rows.count - 1)
    }

    /// Notes that a relationship of a stored row changed (its foreign key or a join-table row): the name joins the
    /// row's update in this save, or starts one. A foreign key its row's update wrote is named by that update
    /// instead (``updated(_:row:attributes:)``).
    package mutating func relationshipChanged(_ entity: Schema.Entity, row: Int64, name: String) {
        if !indexesUpdates { indexUpdates() }
        guard let index = updates[RowKey(entity: ObjectIdentifier(entity), row: row)] else {
            note(.update, entity, row: row, attributes: name)
            return
        }
        let names = (entries[index].attributes ?? "").split(separator: ",").map(String.init)
        if !names.contains(name) { entries[index].attributes = (names + [name]).joined(separator: ",") }
    }

    /// Splits the runs of updates noted so far into an entry per row and finds each by row, as every later update
    /// will be, so relationship names can join them (runs are joined again when the rows are derived).
    private mutating func indexUpdates() {
        indexesUpdates = true
        guard entries.contains(where: { $0.kind == .update }) else { return }
        var split: [Entry] = []
        split.reserveCapacity(entries.count)
        for entry in entries {
            guard entry.kind == .update else {
                split.append(entry)
                continue
            }
            let keys =
                entry.count == 1
                ? [entry.row] : HistoryKeyList.keys(first: entry.row, count: entry.count, list: entry.keys.stored)
            for (offset, row) in keys.enumerated() {
                updates[RowKey(entity: ObjectIdentifier(entry.entity), row: row)] = split.count
                split.append(
                    Entry(
                        .update, entry.entity, position: entry.position + Int64(offset), row: row,
                        attributes: entry.attributes))
            }
        }
        entries = split
    }

    private mutating func note(_ kind: HistoryTables.Kind, _ entity: Schema.Entity, row: Int64, attributes: String?) {
        let position = noted
        noted += 1
        // An update whose row may still gain relationship names stays an entry of its own (joined with its
        // neighbours when the rows are derived). Compared and extended in place: a copy would copy its key list.
        let separate = indexesUpdates && kind == .update
        if !separate, let last = entries.indices.last, entries[last].kind == kind, entries[last].entity === entity,
            entries[last].attributes == attributes
        {
            entries[last].keys.append(row)
            entries[last].count += 1
            return
        }
        if separate { updates[RowKey(entity: ObjectIdentifier(entity), row: row)] = entries.count }
        entries.append(Entry(kind, entity, position: position, row: row, attributes: attributes))
    }

    /// The history rows of the save: the changes of one kind, entity and attribute list as one row, and a row per
    /// preserved value of a deleted row.
    ///
    /// Updates with the same attribute list join one row wherever they are in the save (a save writes rows in key
    /// order, so a few moved books among many retitled ones would otherwise break the retitled ones into a row per
    /// run); inserts and deletes join their neighbours only. The changes are numbered again in the order of the
    /// rows, each row's at consecutive positions, and each preserved value follows its deletion to its new position.
    package func historyRows() -> (changes: [HistoryChangeRow], tombstones: [HistoryTombstoneRow]) {
        // One entry — most saves in an editor — is its own row: nothing to group or renumber but from 0.
        if entries.count == 1, let entry = entries.first {
            let moved = tombstones.map {
                HistoryTombstoneRow(position: $0.position - entry.position, name: $0.name, value: $0.value)
            }
            return ([entry.historyRow(at: 0)], moved)
        }
        var groups: [Entry] = []
        // Where each entry went: the group, and the offset of its first change in it.
        var placements: [(group: Int, offset: Int64)] = []
        placements.reserveCapacity(entries.count)
        var updateGroups: [UpdateShape: Int] = [:]
        for entry in entries {
            let shape = UpdateShape(entity: ObjectIdentifier(entry.entity), attributes: entry.attributes)
            if entry.kind == .update, let group = updateGroups[shape] {
                placements.append((group, groups[group].count))
                groups[group].append(entry)
            } else if let last = groups.indices.last, groups[last].joins(entry) {
                placements.append((last, groups[last].count))
                groups[last].append(entry)
            } else {
                if entry.kind == .update { updateGroups[shape] = groups.count }
                placements.append((groups.count, 0))
                groups.append(entry)
            }
        }
        var starts: [Int64] = []
        starts.reserveCapacity(groups.count)
        var rows: [HistoryChangeRow] = []
        rows.reserveCapacity(groups.count)
        var next: Int64 = 0
        for group in groups {
            starts.append(next)
            rows.append(group.historyRow(at: next))
            next += group.count
        }
        guard !tombstones.isEmpty else { return (rows, []) }
        // Entries are in the order of their first positions, so the entry holding a position is found by bisection.
        let moved = tombstones.map { tombstone in
            var (low, high) = (0, entries.count)
            while high - low > 1 {
                let middle = (low + high) / 2
                if entries[middle].position <= tombstone.position { low = middle } else { high = middle }
            }
            let placement = placements[low]
            let position = starts[placement.group] + placement.offset + (tombstone.position - entries[low].position)
            return HistoryTombstoneRow(position: position, name: tombstone.name, value: tombstone.value)
        }
        return (rows, moved)
    }

    /// The entity and attribute list of an update: updates that share them are one history row.
    private struct UpdateShape: Hashable {
        let entity: ObjectIdentifier
        let attributes: String?
    }
}

/// One `strata_history_changes` row: `count` changes of `kind` to `entity`'s rows from `row` (the others listed
/// in `keys`, ``HistoryKeyList``; `nil`: consecutive), at consecutive positions from `position`.
package struct HistoryChangeRow {
    package let position: Int64
    package let kind: HistoryTables.Kind
    package let entity: String
    package let row: Int64
    package let count: Int64
    package let attributes: String?
    package let keys: [UInt8]?
}

/// One `strata_history_tombstones` row: a preserved value of the row deleted at `position`.
package struct HistoryTombstoneRow {
    package let position: Int64
    package let name: String
    package let value: StoredValue
}
