import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

/// `FloatingSum`, behind `strata_real_sum`/`strata_real_avg` and the evaluator's floating-point `@sum`: the
/// exact sum rounded once, whatever the order, with IEEE's NaN and infinities.
@Suite struct FloatingSumTests {
    private func sum(_ values: [Double]) -> Double {
        var words = [UInt64](repeating: 0, count: FloatingSum.wordCount)
        return words.withUnsafeMutableBufferPointer { words in
            for value in values { FloatingSum.add(value, to: words) }
            return FloatingSum.total(words)
        }
    }

    @Test func finiteSumsAreExactThenRounded() {
        let big = Double.greatestFiniteMagnitude
        #expect(sum([]) == 0)
        #expect(sum([big, big, -big]) == big)
        #expect(sum([-big, 0.3, big, -big]) == -big)
        #expect(sum([big, big]) == .infinity)
        #expect(sum([-big, -big]) == -.infinity)
        #expect(sum([0.1, 0.2, 0.3]) == 0.6)
        #expect(sum([1e100, 1, -1e100]) == 1)
        #expect(sum([.leastNonzeroMagnitude, .leastNonzeroMagnitude]) == 2 * .leastNonzeroMagnitude)
        #expect(
            sum([.leastNormalMagnitude, -.leastNonzeroMagnitude]) == .leastNormalMagnitude - .leastNonzeroMagnitude)
        #expect(sum([1, -1]) == 0)
        #expect(sum([-2.5, 1]) == -1.5)
        // 2⁵³ + 1 ties to the even 2⁵³; 2⁵³ + 1 + tiny rounds up.
        #expect(sum([9_007_199_254_740_992, 1]) == 9_007_199_254_740_992)
        #expect(sum([9_007_199_254_740_992, 1, 1e-300]) == 9_007_199_254_740_994)
    }

    @Test func nanAndInfinitiesFollowIEEE() {
        #expect(sum([.nan, 1]).isNaN)
        #expect(sum([.infinity, -.infinity]).isNaN)
        #expect(sum([.infinity, -.greatestFiniteMagnitude]) == .infinity)
        #expect(sum([-.infinity, 5]) == -.infinity)
    }

    @Test func orderDoesNotMatter() {
        var generator = PredicateFuzzTests.Generator(state: 7)
        let pool = FuzzPools.doubles.filter(\.isFinite) + [1e308, -1e308, .leastNormalMagnitude / 3]
        for _ in 0..<200 {
            let values = (0..<Int(generator.next() % 9)).map { _ in FuzzPools.pick(pool, &generator) }
            let expected = sum(values)
            #expect(sum(values.shuffled(using: &generator)) == expected, "\(values)")
            #expect(sum(values.reversed()) == expected, "\(values)")
        }
    }
}
