/// The foreign keys a save moves on stored rows it updates anyway: each is written by its row's checked `UPDATE`,
/// with the row's changed attributes, rather than by an `UPDATE` of its own after the inserts, as a save written
/// by hand would do it. Only a key known before the inserts joins the row's update (a stored target, or none); one
/// naming a row this save inserts waits for that row's key. A row whose update finds it changed elsewhere has its
/// foreign keys written after the inserts, as before the merge policy had its say.
struct UpdatedRowForeignKeys {
    private struct RowKey: Hashable {
        let entity: ObjectIdentifier
        let row: Int64
    }

    /// A foreign-key update that may join its row's update: its position in `StoreChanges.foreignKeyUpdates`.
    private struct Candidate {
        let position: Int
        let column: String
        let target: StoredValue
    }

    private var candidates: [RowKey: [Candidate]] = [:]
    /// Whether each of the save's foreign-key updates (by position) was written by its row's update.
    private(set) var written: [Bool]

    /// The candidates of `changes`. A static function rather than an initializer: an initializer takes its
    /// argument owned, and the caller copied the whole of the save's changes (a retain of each of its arrays) for
    /// it.
    static func of(_ changes: StoreChanges) -> UpdatedRowForeignKeys {
        var keys = UpdatedRowForeignKeys(written: Array(repeating: false, count: changes.foreignKeyUpdates.count))
        guard changes.updates.contains(where: { !$0.savedForeignKeys.isEmpty }) else { return keys }
        keys.collectCandidates(changes.foreignKeyUpdates)
        return keys
    }

    private init(written: [Bool]) {
        self.written = written
    }

    private mutating func collectCandidates(_ foreignKeyUpdates: [StoreChanges.ForeignKeyUpdate]) {
        for (position, update) in foreignKeyUpdates.enumerated() {
            guard case .stored(let row) = update.row else { continue }
            let target: StoredValue
            switch update.target {
            case nil: target = .null
            case .stored(let key)?: target = .integer(key)
            case .inserted?: continue
            }
            candidates[RowKey(entity: ObjectIdentifier(update.entity), row: row), default: []].append(
                Candidate(position: position, column: update.column, target: target))
        }
    }

    /// The columns `update` writes: its changed attributes (`columns`) and then, by property index, the foreign
    /// keys of its row that join it, with their positions; `nil` when none joins it.
    func joined(
        _ update: StoreChanges.Update, _ columns: ArraySlice<StoreChanges.UpdateColumn>
    ) -> (columns: ArraySlice<StoreChanges.UpdateColumn>, positions: [Int])? {
        guard !update.savedForeignKeys.isEmpty, !candidates.isEmpty,
            let found = candidates[RowKey(entity: ObjectIdentifier(update.entity), row: update.primaryKey)]
        else { return nil }
        var joined = Array(columns)
        var positions: [Int] = []
        for (index, saved) in update.savedForeignKeys.sorted(by: { $0.key < $1.key }) {
            let name = update.entity.persistentProperties[index].name
            guard let candidate = found.first(where: { $0.column == name }) else { continue }
            joined.append(StoreChanges.UpdateColumn(index: index, value: candidate.target, saved: saved))
            positions.append(candidate.position)
        }
        return positions.isEmpty ? nil : (joined[...], positions)
    }

    /// Notes that the foreign-key updates at `positions` were written by their row's update.
    mutating func markWritten(_ positions: [Int]) {
        for position in positions { written[position] = true }
    }
}
