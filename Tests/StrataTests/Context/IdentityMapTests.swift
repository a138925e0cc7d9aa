import Foundation
import Strata
import Testing
@testable import StrataTestFixtures

@Model final class IdentityMapEntry {
    var number: Int
    init(number: Int) { self.number = number }
}

@Suite("Identity map")
struct IdentityMapTests {
    /// Runs random inserts, replacements, removals and lookups against `IdentityMap` and a `Dictionary` side by side.
    private func checkAgainstDictionary(keys: [Int64], operations: Int, seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        var map = IdentityMap()
        var expected: [Int64: IdentityMapEntry] = [:]
        for step in 0..<operations {
            let key = keys[Int(generator.next() % UInt64(keys.count))]
            switch generator.next() % 4 {
            case 0, 1:
                let entry = IdentityMapEntry(number: step)
                map[key] = entry
                expected[key] = entry
            case 2:
                let removed = map.removeValue(forKey: key)
                #expect(removed === expected.removeValue(forKey: key), "remove \(key) at step \(step)")
            default:
                #expect(map[key] === expected[key], "lookup \(key) at step \(step)")
            }
            #expect(map.count == expected.count)
        }
        for key in keys { #expect(map[key] === expected[key], "final lookup \(key)") }
        #expect(Set(map.primaryKeys) == Set(expected.keys))
        #expect(Set(map.registered.map { ObjectIdentifier($0) }) == Set(expected.values.map { ObjectIdentifier($0) }))
    }

    @Test func consecutiveKeysBehaveLikeADictionary() {
        checkAgainstDictionary(keys: Array(1...3_000), operations: 20_000, seed: 1)
    }

    @Test func keysThatShareLowBitsBehaveLikeADictionary() {
        // Multiples of 8 and of 4,096 land in the same slot of their group and collide in the high bits.
        checkAgainstDictionary(
            keys: (0..<500).map { Int64($0) * 8 } + (0..<500).map { Int64($0) * 4_096 },
            operations: 20_000, seed: 2)
    }

    @Test func extremeKeysIncludingTheEmptySlotMarkerAreKept() {
        checkAgainstDictionary(keys: [.min, .min + 1, -1, 0, 1, .max - 1, .max], operations: 2_000, seed: 3)
    }

    @Test func removingFromAFullProbeRunKeepsTheOthersFindable() {
        var map = IdentityMap()
        let entries = (0..<1_000).map { IdentityMapEntry(number: $0) }
        for (index, entry) in entries.enumerated() { map[Int64(index)] = entry }
        for index in stride(from: 0, to: 1_000, by: 3) { map[Int64(index)] = nil }
        for (index, entry) in entries.enumerated() {
            #expect(map[Int64(index)] === (index.isMultiple(of: 3) ? nil : entry))
        }
        #expect(map.count == 666)
        #expect(map.filter { ($0 as? IdentityMapEntry)?.number ?? 0 < 10 }.keys.sorted() == [1, 2, 4, 5, 7, 8])
    }

    @Test func forEachModelVisitsEveryModelOnceWithItsKey() {
        var map = IdentityMap()
        let keys: [Int64] = [.min, -7, 0, 3, 4_096, .max]
        for (number, key) in keys.enumerated() { map[key] = IdentityMapEntry(number: number) }
        map[3] = nil
        var visited: [Int64: Int] = [:]
        map.forEachModel { key, model in
            visited[key, default: 0] += 1
            #expect((model as? IdentityMapEntry)?.number == keys.firstIndex(of: key))
        }
        #expect(visited == [.min: 1, -7: 1, 0: 1, 4_096: 1, .max: 1])
    }

    @Test func aCopyKeepsItsModelsWhileTheOriginalChanges() {
        var original = IdentityMap()
        let entries = (0..<100).map { IdentityMapEntry(number: $0) }
        for (index, entry) in entries.enumerated() { original[Int64(index)] = entry }
        let copy = original
        // Growing, replacing and removing in the original all happen after the copy was taken.
        for index in 100..<1_000 { original[Int64(index)] = IdentityMapEntry(number: index) }
        original[5] = IdentityMapEntry(number: -5)
        original[7] = nil
        #expect(copy.count == 100)
        for (index, entry) in entries.enumerated() { #expect(copy[Int64(index)] === entry) }
        #expect(copy[500] == nil)
        #expect(original.count == 999)
        #expect((original[5] as? IdentityMapEntry)?.number == -5)
        #expect(original[7] == nil)

        var second = copy
        second[3] = nil
        #expect(copy[3] === entries[3])
        #expect(second[3] == nil && second.count == 99)
    }

    @Test func removedReplacedAndDroppedModelsAreReleased() {
        weak var removed: IdentityMapEntry?
        weak var replaced: IdentityMapEntry?
        weak var dropped: IdentityMapEntry?
        var map: IdentityMap? = IdentityMap()
        do {
            let first = IdentityMapEntry(number: 1), second = IdentityMapEntry(number: 2),
                third = IdentityMapEntry(number: 3)
            removed = first
            replaced = second
            dropped = third
            map?[1] = first
            map?[2] = second
            map?[3] = third
            // Grown past its first size while holding them, so the models were moved to new slots.
            for key in 10..<200 { map?[Int64(key)] = IdentityMapEntry(number: key) }
            map?[1] = nil
            map?[2] = IdentityMapEntry(number: 20)
        }
        #expect(removed == nil)
        #expect(replaced == nil)
        #expect(dropped != nil)
        map = nil
        #expect(dropped == nil)
    }

    @Test func changesToAMapNobodySharesDontCopyIt() {
        // Regression: a removal once held a second reference to the slots while asking whether they were shared,
        // so every removal copied the whole table (an enumeration of 1,000,000 rows took 80 times as long).
        var map = IdentityMap()
        map.reserveCapacity(1_000)
        let storage = map.storageIdentifier
        for key in 0..<500 { map[Int64(key)] = IdentityMapEntry(number: key) }
        for key in 0..<250 { map[Int64(key)] = nil }
        map[300] = IdentityMapEntry(number: -300)
        #expect(map.storageIdentifier == storage)
        #expect(map.count == 250)
    }

    @Test("removeAll keeping capacity releases every model, keeps the slots, and leaves a copy its models")
    func removeAllKeepingCapacity() {
        var map = IdentityMap()
        weak var released: IdentityMapEntry?
        do {
            let entry = IdentityMapEntry(number: 1)
            released = entry
            map[1] = entry
        }
        for key in 2..<300 { map[Int64(key)] = IdentityMapEntry(number: key) }
        map[Int64.min] = IdentityMapEntry(number: -1)
        let storage = map.storageIdentifier
        map.removeAll(keepingCapacity: true)
        #expect(map.isEmpty)
        #expect(map[1] == nil && map[Int64.min] == nil)
        #expect(released == nil)
        #expect(map.storageIdentifier == storage)
        map[7] = IdentityMapEntry(number: 7)
        #expect(map.count == 1 && (map[7] as? IdentityMapEntry)?.number == 7)

        let copy = map
        map.removeAll(keepingCapacity: true)
        #expect(map.isEmpty)
        #expect((copy[7] as? IdentityMapEntry)?.number == 7)
        map.removeAll()
        #expect(map.storageIdentifier == nil)
    }

    @Test func movingInManyRegistersEachAndEmptiesTheEntries() {
        var map = IdentityMap()
        let kept = IdentityMapEntry(number: 0)
        map[1] = kept
        map[2] = IdentityMapEntry(number: -2)
        let copy = map
        let entries = (2..<2_000).map { IdentityMapEntry(number: $0) }
        var moved: [(key: Int64, model: any PersistentModel)] = entries.map { (Int64($0.number), $0) }
        let marker = IdentityMapEntry(number: .min)
        moved.append((Int64.min, marker))
        map.insert(movingFrom: &moved)

        #expect(moved.isEmpty)
        #expect(map.count == 2_000)
        #expect(map[1] === kept)
        #expect(map[.min] === marker)
        for entry in entries { #expect(map[Int64(entry.number)] === entry) }
        // The copy taken before still holds what the map held then.
        #expect(copy.count == 2 && (copy[2] as? IdentityMapEntry)?.number == -2 && copy[3] == nil)
    }
}
