import Testing

@testable import Strata
@testable import StrataTestFixtures

@Suite("SavedValues: a small map with its first entry inline")
struct SavedValuesTests {
    /// Random sets, removals and lookups against `SavedValues` and a `Dictionary` side by side.
    @Test(arguments: [(indexes: 3, seed: UInt64(1)), (indexes: 12, seed: 2), (indexes: 1, seed: 3)])
    func behavesLikeADictionary(indexes: Int, seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        var saved = SavedValues()
        var expected: [Int: StoredValue] = [:]
        for step in 0..<5_000 {
            let index = Int(generator.next() % UInt64(indexes))
            switch generator.next() % 5 {
            case 0, 1:
                let value: StoredValue = step.isMultiple(of: 2) ? .text("value \(step)") : .integer(Int64(step))
                saved[index] = value
                expected[index] = value
            case 2:
                saved[index] = nil
                expected[index] = nil
            case 3:
                if step.isMultiple(of: 7) {
                    saved.removeAll()
                    expected.removeAll()
                }
            default:
                #expect(saved[index] == expected[index], "lookup \(index) at step \(step)")
            }
            #expect(saved.count == expected.count, "count at step \(step)")
            #expect(saved.isEmpty == expected.isEmpty)
        }
        #expect(Dictionary(uniqueKeysWithValues: saved.map { ($0.key, $0.value) }) == expected)
        #expect(Set(saved.keys) == Set(expected.keys))
    }

    @Test func firstEntryRemovedLeavesTheOthersReachable() {
        var saved = SavedValues()
        saved[4] = .integer(4)
        saved[2] = .text("two")
        saved[9] = .null
        saved[4] = nil
        #expect(saved[4] == nil)
        #expect(saved[2] == .text("two"))
        #expect(saved[9] == .null)
        #expect(saved.count == 2)
        // The freed inline slot is reused without duplicating an index kept among the others.
        saved[2] = .text("again")
        saved[5] = .integer(5)
        #expect(saved.count == 3)
        #expect(Set(saved.keys) == [2, 5, 9])
        #expect(saved[2] == .text("again"))
    }
}

extension SavedValuesTests {
    @Test("The inline entry costs a model 24 bytes over an empty dictionary: its index sits in the value's padding")
    func inlineEntryIsCompact() {
        #expect(
            MemoryLayout<SavedValues>.size == MemoryLayout<StoredValue>.stride + MemoryLayout<[Int: StoredValue]>.size)
    }
}
