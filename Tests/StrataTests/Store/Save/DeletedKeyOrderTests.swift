import Testing

@testable import Strata

@Suite("Keys put in ascending order")
struct DeletedKeyOrderTests {
    /// A generator whose sequence is the same on every run.
    private struct Numbers: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state
        }
    }

    @Test("Keys in runs of their index's order, as a cascade reads them, come back as sorted() gives them")
    func cascadeOrder() {
        // 100 runs of 100 keys, run r holding r + 1, r + 201, r + 401, …: the books of 100 of 200 authors.
        let keys = (0..<100).flatMap { run in (0..<100).map { Int64(run + 1 + 200 * $0) } }
        #expect(keys.inKeyOrder() == keys.sorted())
    }

    @Test("Any keys come back as sorted() gives them: dense, sparse, repeated, in order, at the ends of Int64")
    func anyKeys() {
        var numbers = Numbers(state: 42)
        var cases: [[Int64]] = [
            [], [7], Array(1...500), Array((1...500).reversed()),
            [Int64.min, Int64.max] + (0..<100).map { Int64($0) },
            (0..<100).map { Int64($0 % 50) },
        ]
        for count in [10, 65, 300, 5_000] {
            for spread in [1, 2, 4, 5, 1_000] {
                let range = Int64(count * spread)
                cases.append((0..<count).map { _ in Int64.random(in: -range...range, using: &numbers) })
                cases.append(Array(Set((0..<count).map { _ in Int64.random(in: 0..<range, using: &numbers) })))
            }
        }
        for keys in cases { #expect(keys.inKeyOrder() == keys.sorted()) }
    }
}
