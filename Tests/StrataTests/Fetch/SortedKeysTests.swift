import Testing

@testable import Strata

@Suite struct SortedKeysTests {
    @Test func keysAreKeptSortedOnceEach() {
        let keys = SortedKeys([9, -3, 4, 9, 0, 4, Int64.max, Int64.min])
        #expect(keys.sorted == [Int64.min, -3, 0, 4, 9, Int64.max])
        #expect(keys.count == 6)
        #expect(!keys.isEmpty)
        #expect(SortedKeys([]).isEmpty)
    }

    @Test func containsFindsEveryKeyAndNoOther() {
        let members: [Int64] = (0..<100).map { $0 * 3 }
        let keys = SortedKeys(Array(members.reversed()))
        for candidate in Int64(-2)...Int64(300) {
            #expect(keys.contains(candidate) == members.contains(candidate), "key \(candidate)")
        }
        #expect(!SortedKeys([]).contains(0))
        #expect(SortedKeys([Int64.min, Int64.max]).contains(Int64.max))
    }

    @Test func theSameKeysInAnyOrderAreEqualAndHashAlike() {
        let one = SortedKeys([5, 1, 3, 1])
        let other: SortedKeys = [3, 5, 1]
        #expect(one == other)
        #expect(one.hashValue == other.hashValue)
        #expect(one != SortedKeys([1, 3]))
    }
}
