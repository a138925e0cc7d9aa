/// A `numeric` value in PostgreSQL's binary format, printed as PostgreSQL's text output prints it — so a Decimal
/// read in binary is the same text as one read in text, every digit kept.
///
/// The format: `ndigits`, `weight` (of the first digit, in powers of 10,000), `sign` and `dscale` (the digits after
/// the point to print), each a 16-bit big-endian integer, then `ndigits` base-10,000 digits.
struct PostgresNumeric {
    private let weight: Int
    private let sign: UInt16
    private let scale: Int
    private let digits: [Int16]

    private static let positive: UInt16 = 0x0000
    private static let negative: UInt16 = 0x4000
    private static let notANumber: UInt16 = 0xC000
    private static let infinity: UInt16 = 0xD000
    private static let negativeInfinity: UInt16 = 0xF000

    /// Reads the header and digits; `nil` when the bytes are shorter than the header says.
    init?(_ bytes: UnsafeRawBufferPointer) {
        func field(_ index: Int) -> UInt16 {
            UInt16(bigEndian: bytes.loadUnaligned(fromByteOffset: index * 2, as: UInt16.self))
        }
        guard bytes.count >= 8 else { return nil }
        let count = Int(field(0))
        guard bytes.count >= 8 + 2 * count else { return nil }
        weight = Int(Int16(bitPattern: field(1)))
        sign = field(2)
        scale = Int(field(3) & 0x3FFF)
        digits = (0..<count).map { Int16(bitPattern: field(4 + $0)) }
    }

    /// The text PostgreSQL prints: `NaN`, `Infinity`, `-Infinity`, or an optional `-`, the integer digits (`0` when
    /// there are none) and, for a scale above zero, a point and exactly `scale` digits.
    var text: String {
        switch sign {
        case Self.notANumber: return "NaN"
        case Self.infinity: return "Infinity"
        case Self.negativeInfinity: return "-Infinity"
        default: break
        }
        var characters: [UInt8] = []
        characters.reserveCapacity(max(weight + 1, 1) * 4 + scale + 2)
        if sign == Self.negative { characters.append(UInt8(ascii: "-")) }
        func digit(at position: Int) -> Int { position >= 0 && position < digits.count ? Int(digits[position]) : 0 }
        func append(_ group: Int, padded: Bool) {
            var divisor = 1000
            var started = padded
            while divisor > 0 {
                let decimal = group / divisor % 10
                if decimal != 0 || started || divisor == 1 {
                    characters.append(UInt8(ascii: "0") + UInt8(decimal))
                    started = true
                }
                divisor /= 10
            }
        }
        if weight < 0 {
            characters.append(UInt8(ascii: "0"))
        } else {
            for position in 0...weight { append(digit(at: position), padded: position > 0) }
        }
        if scale > 0 {
            characters.append(UInt8(ascii: "."))
            var written = 0
            var position = weight + 1
            while written < scale {
                var group = digit(at: position)
                var divisor = 1000
                while divisor > 0, written < scale {
                    characters.append(UInt8(ascii: "0") + UInt8(group / divisor))
                    group %= divisor
                    divisor /= 10
                    written += 1
                }
                position += 1
            }
        }
        return String(decoding: characters, as: UTF8.self)
    }
}
