import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

/// `HistoryKeyList`: the keys of a history row that stands for several changes round-trip exactly.
@Suite struct HistoryKeyListTests {
    private func roundTrip(_ keys: [Int64]) -> [Int64] {
        var list = HistoryKeyList(first: keys[0])
        for key in keys.dropFirst() { list.append(key) }
        return HistoryKeyList.keys(first: keys[0], count: Int64(keys.count), list: list.stored)
    }

    @Test func consecutiveKeysNeedNoList() {
        var list = HistoryKeyList(first: 5)
        for key in Int64(6)...40 { list.append(key) }
        #expect(list.stored == nil)
        #expect(HistoryKeyList.keys(first: 5, count: 36, list: nil) == Array(5...40))
    }

    @Test func scatteredKeysRoundTrip() {
        #expect(roundTrip([1, 3, 2, 100, -5, 0]) == [1, 3, 2, 100, -5, 0])
        #expect(roundTrip([.max, .min, 0, .max, 1]) == [.max, .min, 0, .max, 1])
        var generator = PredicateFuzzTests.Generator(state: 21)
        for _ in 0..<200 {
            let keys = (0..<Int(1 + generator.next() % 50)).map { _ in
                generator.next() % 4 == 0 ? Int64(bitPattern: generator.next()) : Int64(generator.next() % 1000)
            }
            #expect(roundTrip(keys) == keys)
        }
    }

    @Test func smallStepsTakeOneByte() {
        var list = HistoryKeyList(first: 10)
        for key: Int64 in [12, 14, 13, 70] { list.append(key) }
        #expect(list.stored?.count == 4)
    }

    @Test func runsAppendedAtOnceEncodeAsKeysAppendedOneByOne() {
        var generator = PredicateFuzzTests.Generator(state: 48)
        for _ in 0..<100 {
            let keys = (0..<Int(2 + generator.next() % 60)).map { _ in Int64(generator.next() % 500) }
            var oneByOne = HistoryKeyList(first: keys[0])
            for key in keys.dropFirst() { oneByOne.append(key) }
            // In two runs, as a save's journal appends a batch delete's keys to the run its entry joined.
            var inRuns = HistoryKeyList(first: keys[0])
            let split = 1 + Int(generator.next() % UInt64(keys.count - 1))
            inRuns.append(contentsOf: keys[1..<split])
            inRuns.append(contentsOf: keys[split...])
            #expect(inRuns.stored == oneByOne.stored)
            #expect(inRuns.bytes == oneByOne.bytes)
        }
        var consecutive = HistoryKeyList(first: 1)
        consecutive.append(contentsOf: Array(Int64(2)...50_000)[...])
        #expect(consecutive.stored == nil)
    }

    // A damaged list (cut short) continues consecutively instead of failing the read.
    @Test func shortListContinuesConsecutively() {
        #expect(HistoryKeyList.keys(first: 1, count: 4, list: [6]) == [1, 4, 5, 6])
    }
}
