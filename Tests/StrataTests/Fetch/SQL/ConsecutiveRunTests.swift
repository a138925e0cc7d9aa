import Testing

@testable import Strata

/// A key filter whose keys follow one another is read as a range: `consecutiveRun` tells such keys, and only them.
@Suite("Keys that follow one another")
struct ConsecutiveRunTests {
    @Test("Two or more keys each one more than the one before are a run")
    func runs() {
        #expect([4, 5].consecutiveRun == 4...5)
        #expect(Array(Int64(1)...Int64(5_000)).consecutiveRun == 1...5_000)
        #expect([-3, -2, -1, 0, 1].consecutiveRun == -3...1)
        #expect([Int64.max - 2, Int64.max - 1, Int64.max].consecutiveRun == (Int64.max - 2)...Int64.max)
        #expect([Int64.min, Int64.min + 1].consecutiveRun == Int64.min...(Int64.min + 1))
    }

    @Test("No key, one key, a gap, a repeat, keys out of order or past the largest key are no run")
    func notRuns() {
        #expect([Int64]().consecutiveRun == nil)
        #expect([7].consecutiveRun == nil)
        #expect([1, 2, 4].consecutiveRun == nil)
        #expect([1, 2, 2, 3].consecutiveRun == nil)
        #expect([1, 3, 2].consecutiveRun == nil)
        #expect([3, 2, 1].consecutiveRun == nil)
        #expect([1, 2, 3, 5, 4, 6].consecutiveRun == nil)
        #expect([Int64.max, Int64.min].consecutiveRun == nil)
        #expect([Int64.max - 1, Int64.max, Int64.min].consecutiveRun == nil)
    }
}
