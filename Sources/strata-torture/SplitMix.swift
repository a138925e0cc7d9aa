/// A small seeded generator (SplitMix64): the same seed gives the same saves in the writer and in the checker.
struct SplitMix: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (0 when `bound` is 0).
    mutating func below(_ bound: Int) -> Int {
        bound <= 0 ? 0 : Int(next() % UInt64(bound))
    }

    /// One element of a non-empty array.
    mutating func pick(_ values: [Int]) -> Int {
        values[below(values.count)]
    }

    /// Whether an event of probability `percent` / 100 happens.
    mutating func chance(_ percent: Int) -> Bool {
        below(100) < percent
    }
}
