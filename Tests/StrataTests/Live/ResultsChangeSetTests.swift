import Testing

@testable import Strata
@testable import StrataTestFixtures

/// A small seeded generator, so a failing sequence can be replayed.
struct LiveRandom: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state ^ (state >> 29)
    }
}

@Suite("Change sets")
struct ResultsChangeSetTests {
    @Test func listsDeletionsDescendingAndInsertionsAscending() {
        let changes = ResultsChangeSet(from: ["a", "b", "c", "d"], to: ["x", "a", "c", "y"], updated: [])
        #expect(changes.deletedIndexes == [3, 1])
        #expect(changes.insertedIndexes == [0, 3])
        #expect(changes.moves.isEmpty)
    }

    @Test func reportsAMoveAndTheUpdatesOfRowsInPlace() {
        let changes = ResultsChangeSet(from: ["a", "b", "c", "d"], to: ["b", "c", "a", "d"], updated: ["a", "d"])
        #expect(changes.moves == [ResultsChangeSet.Move(from: 0, to: 2)])
        #expect(changes.updatedIndexes == [3])
        #expect(changes.deletedIndexes.isEmpty && changes.insertedIndexes.isEmpty)
    }

    @Test func identicalResultsMakeAnEmptyChangeSet() {
        #expect(ResultsChangeSet(from: [1, 2, 3], to: [1, 2, 3], updated: []).isEmpty)
        #expect(!ResultsChangeSet(from: [1, 2, 3], to: [1, 2, 3], updated: [2]).isEmpty)
    }

    @Test func sectionChangesRemoveAndInsertTitles() {
        var changes = ResultsChangeSet()
        changes.addSectionChanges(from: ["a", "b", "c"], to: ["a", "c", "d"])
        #expect(changes.deletedSections == [1])
        #expect(changes.insertedSections == [2])
    }

    @Test(arguments: 1...8 as ClosedRange<UInt64>)
    func applyingRandomChangeSetsRebuildsTheNewArray(seed: UInt64) {
        var random = LiveRandom(state: seed)
        var old = Array(0..<Int.random(in: 0...30, using: &random))
        var nextID = 1_000
        for _ in 0..<40 {
            var new = old.filter { _ in Int.random(in: 0..<5, using: &random) != 0 }
            for _ in 0..<Int.random(in: 0...4, using: &random) {
                new.insert(nextID, at: Int.random(in: 0...new.count, using: &random))
                nextID += 1
            }
            if new.count > 1, Bool.random(using: &random) {
                let row = new.remove(at: Int.random(in: 0..<new.count, using: &random))
                new.insert(row, at: Int.random(in: 0...new.count, using: &random))
            }
            let updated = Set(new.filter { _ in Int.random(in: 0..<4, using: &random) == 0 })
            let changes = ResultsChangeSet(from: old, to: new, updated: updated)
            #expect(LiveFixtures.apply(changes, to: old, newRows: new) == new)
            #expect(changes.deletedIndexes == changes.deletedIndexes.sorted(by: >))
            #expect(changes.insertedIndexes == changes.insertedIndexes.sorted())
            let oldSet = Set(old)
            let moved = Set(changes.moves.map(\.to))
            let expectedUpdates = new.indices.filter {
                updated.contains(new[$0]) && oldSet.contains(new[$0]) && !moved.contains($0)
            }
            #expect(changes.updatedIndexes == expectedUpdates)
            old = new
        }
    }
}
