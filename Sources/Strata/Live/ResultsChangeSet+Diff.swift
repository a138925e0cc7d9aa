extension ResultsChangeSet {
    /// The change set that turns `old` into `new`, with `updated` naming the elements (present in both) whose
    /// properties changed. Elements must be unique within each array.
    ///
    /// Moves are the fewest that explain the new order (what a longest common subsequence leaves out).
    package init<ID: Hashable>(from old: [ID], to new: [ID], updated: Set<ID>) {
        self.init()
        let difference = new.difference(from: old).inferringMoves()
        var movedTo = Set<Int>()
        for change in difference.insertions {
            guard case .insert(let offset, _, let associated) = change else { continue }
            if let from = associated {
                moves.append(Move(from: from, to: offset))
                movedTo.insert(offset)
            } else {
                insertedIndexes.append(offset)
            }
        }
        for change in difference.removals {
            guard case .remove(let offset, _, let associated) = change, associated == nil else { continue }
            deletedIndexes.append(offset)
        }
        deletedIndexes.sort(by: >)
        insertedIndexes.sort()
        moves.sort { $0.to < $1.to }
        if !updated.isEmpty {
            let inserted = Set(insertedIndexes)
            updatedIndexes = new.indices.filter { index in
                !inserted.contains(index) && !movedTo.contains(index) && updated.contains(new[index])
            }
        }
    }

    /// Adds the section changes that turn the section titles `old` into `new` (a section that changed place
    /// relative to the others is removed and inserted again).
    package mutating func addSectionChanges<Title: Hashable>(from old: [Title], to new: [Title]) {
        let difference = new.difference(from: old)
        deletedSections = difference.removals.map(\.offset).sorted(by: >)
        insertedSections = difference.insertions.map(\.offset).sorted()
    }
}

extension CollectionDifference.Change {
    /// The index the change applies at.
    fileprivate var offset: Int {
        switch self {
        case .insert(let offset, _, _), .remove(let offset, _, _): offset
        }
    }
}
