import Foundation

/// The exact sum of `Double`s, rounded once at the end: a fixed-point integer wide enough for any finite sum,
/// so the result doesn't depend on the order the values come in (a to-many relationship has none) and no
/// intermediate sum overflows. NaN, or both infinities, give NaN; one infinity gives itself; a finite sum past
/// `greatestFiniteMagnitude` rounds to an infinity, as Swift's `+` would.
///
/// The state lives in ``wordCount`` words that start zeroed, so SQLite's zeroed aggregate context holds an
/// empty sum as is; the evaluator keeps the same words in an array.
package enum FloatingSum {
    /// Limbs of a two's complement integer in units of 2⁻¹⁰⁷⁴ (the smallest subnormal): a finite double spans
    /// at most 2098 bits, and 64 more bits of headroom allow 2⁶³ values.
    private static let limbCount = 34
    private static let flags = limbCount
    private static let counter = limbCount + 1
    /// The words one sum needs.
    package static let wordCount = limbCount + 2

    private static let sawNaN: UInt64 = 1, sawPlusInfinity: UInt64 = 2, sawMinusInfinity: UInt64 = 4

    /// Adds `value` to the sum held in `words`.
    package static func add(_ value: Double, to words: UnsafeMutableBufferPointer<UInt64>) {
        words[counter] &+= 1
        if value.isNaN { return words[flags] |= sawNaN }
        if value.isInfinite { return words[flags] |= value > 0 ? sawPlusInfinity : sawMinusInfinity }
        let exponent = Int(value.exponentBitPattern)
        let significand = value.significandBitPattern | (exponent == 0 ? 0 : 1 << 52)
        guard significand != 0 else { return }
        // A normal double is significand × 2^(exponent − 1075) = significand × 2^(exponent − 1) units.
        let shift = exponent == 0 ? 0 : exponent - 1
        let (limb, offset) = (shift / 64, UInt64(shift % 64))
        let low = significand << offset
        let high = offset == 0 ? 0 : significand >> (64 - offset)
        accumulate(low, high, at: limb, negative: value < 0, into: words)
    }

    /// The number of values added (NaN and infinities included).
    package static func count(_ words: UnsafeMutableBufferPointer<UInt64>) -> UInt64 { words[counter] }

    /// The sum rounded to the nearest `Double` (ties to even); 0 over no values.
    package static func total(_ words: UnsafeMutableBufferPointer<UInt64>) -> Double {
        let flags = words[flags]
        if flags & sawNaN != 0 || flags & (sawPlusInfinity | sawMinusInfinity) == sawPlusInfinity | sawMinusInfinity {
            return .nan
        }
        if flags & sawPlusInfinity != 0 { return .infinity }
        if flags & sawMinusInfinity != 0 { return -.infinity }
        var limbs = Array(words[0..<limbCount])
        let negative = limbs[limbCount - 1] >> 63 == 1
        if negative {
            // Two's complement negation: invert, add one.
            var carry: UInt64 = 1
            for index in limbs.indices {
                let (sum, overflow) = (~limbs[index]).addingReportingOverflow(carry)
                limbs[index] = sum
                carry = overflow ? 1 : 0
            }
        }
        guard let top = limbs.indices.last(where: { limbs[$0] != 0 }) else { return 0 }
        let highest = top * 64 + (63 - limbs[top].leadingZeroBitCount)
        let bit = { (position: Int) -> UInt64 in position < 0 ? 0 : (limbs[position / 64] >> UInt64(position % 64)) & 1
        }
        let magnitude: Double
        if highest < 53 {
            magnitude = Double(sign: .plus, exponent: -1074, significand: Double(limbs[0]))
        } else {
            var mantissa: UInt64 = 0
            for position in stride(from: highest, through: highest - 52, by: -1) {
                mantissa = mantissa << 1 | bit(position)
            }
            let round = bit(highest - 53) == 1
            let sticky = (0..<max(0, highest - 53)).contains { bit($0) == 1 }
            if round && (sticky || mantissa & 1 == 1) { mantissa += 1 }
            magnitude = Double(sign: .plus, exponent: highest - 52 - 1074, significand: Double(mantissa))
        }
        return negative ? -magnitude : magnitude
    }

    /// Adds (or, when `negative`, subtracts) the 128-bit value `high:low` at limb `limb`, carrying or borrowing
    /// upward.
    private static func accumulate(
        _ low: UInt64, _ high: UInt64, at limb: Int, negative: Bool, into words: UnsafeMutableBufferPointer<UInt64>
    ) {
        func step(_ word: UInt64, _ operand: UInt64, _ carry: Bool) -> (UInt64, Bool) {
            let (partial, first) =
                negative ? word.subtractingReportingOverflow(operand) : word.addingReportingOverflow(operand)
            guard carry else { return (partial, first) }
            let (result, second) =
                negative ? partial.subtractingReportingOverflow(1) : partial.addingReportingOverflow(1)
            return (result, first || second)
        }
        var carry: Bool
        (words[limb], carry) = step(words[limb], low, false)
        (words[limb + 1], carry) = step(words[limb + 1], high, carry)
        var index = limb + 2
        while carry, index < limbCount {
            (words[index], carry) = step(words[index], 0, true)
            index += 1
        }
    }
}
