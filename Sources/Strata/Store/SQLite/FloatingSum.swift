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
        if value < 0 { subtract(low, high, at: limb, from: words) } else { addWords(low, high, at: limb, to: words) }
    }

    /// The number of values added (NaN and infinities included).
    package static func count(_ words: UnsafeMutableBufferPointer<UInt64>) -> UInt64 { words[counter] }

    /// The sum rounded to the nearest `Double` (ties to even); 0 over no values.
    package static func total(_ words: UnsafeMutableBufferPointer<UInt64>) -> Double {
        let flags = words[flags]
        if flags & sawNaN != 0 || flags & (sawPlusInfinity | sawMinusInfinity) == sawPlusInfinity | sawMinusInfinity { return .nan }
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
        let bit = { (position: Int) -> UInt64 in position < 0 ? 0 : (limbs[position / 64] >> UInt64(position % 64)) & 1 }
        let magnitude: Double
        if highest < 53 {
            magnitude = Double(sign: .plus, exponent: -1074, significand: Double(limbs[0]))
        } else {
            var mantissa: UInt64 = 0
            for position in stride(from: highest, through: highest - 52, by: -1) { mantissa = mantissa << 1 | bit(position) }
            let round = bit(highest - 53) == 1
            let sticky = (0..<max(0, highest - 53)).contains { bit($0) == 1 }
            if round && (sticky || mantissa & 1 == 1) { mantissa += 1 }
            magnitude = Double(sign: .plus, exponent: highest - 52 - 1074, significand: Double(mantissa))
        }
        return negative ? -magnitude : magnitude
    }

    private static func addWords(_ low: UInt64, _ high: UInt64, at limb: Int, to words: UnsafeMutableBufferPointer<UInt64>) {
        let (first, carried) = words[limb].addingReportingOverflow(low)
        words[limb] = first
        let (second, overflow) = words[limb + 1].addingReportingOverflow(high)
        let (withCarry, overflowCarry) = second.addingReportingOverflow(carried ? 1 : 0)
        words[limb + 1] = withCarry
        var carry: UInt64 = overflow || overflowCarry ? 1 : 0
        var index = limb + 2
        while carry != 0, index < limbCount {
            (words[index], carry) = words[index] == .max ? (0, 1) : (words[index] + 1, 0)
            index += 1
        }
    }

    private static func subtract(_ low: UInt64, _ high: UInt64, at limb: Int, from words: UnsafeMutableBufferPointer<UInt64>) {
        let (first, borrowed) = words[limb].subtractingReportingOverflow(low)
        words[limb] = first
        let (second, underflow) = words[limb + 1].subtractingReportingOverflow(high)
        let (withBorrow, underflowBorrow) = second.subtractingReportingOverflow(borrowed ? 1 : 0)
        words[limb + 1] = withBorrow
        var borrow: UInt64 = underflow || underflowBorrow ? 1 : 0
        var index = limb + 2
        while borrow != 0, index < limbCount {
            (words[index], borrow) = words[index] == 0 ? (.max, 1) : (words[index] - 1, 0)
            index += 1
        }
    }
}
