import Foundation
@testable import Strata
import Testing

@Suite("StoredValues")
struct StoredValuesTests {
    @Test func aCopyKeepsItsValuesWhenTheOriginalChanges() {
        var original = StoredValues(repeating: .null, count: 3)
        original[0] = .text("Dune")
        let copy = original
        original[0] = .text("Emma")
        original[2] = .integer(7)
        original.withUnsafeMutableBufferPointer { $0[1] = .real(1.5) }
        #expect(Array(copy) == [.text("Dune"), .null, .null])
        #expect(Array(original) == [.text("Emma"), .real(1.5), .integer(7)])
    }

    @Test func appendingGrowsAndLeavesCopiesAlone() {
        var values = StoredValues()
        #expect(values.isEmpty)
        // Empty values share one buffer (a model made from a row starts with them), and appending copies it.
        #expect(values.buffer === StoredValues([]).buffer)
        var copies: [StoredValues] = []
        for number in 0..<100 {
            copies.append(values)
            values.append(.integer(Int64(number)))
        }
        #expect(values.count == 100)
        #expect(values.map { $0 } == (0..<100).map { StoredValue.integer(Int64($0)) })
        #expect(copies[10].count == 10 && copies[10].last == .integer(9))
    }

    @Test func equalityComparesValuesNotStorage() {
        let shared = StoredValues([.text("a"), .blob([1, 2])])
        let same = shared
        let equal = StoredValues([.text("a"), .blob([1, 2])])
        var different = shared
        different[1] = .blob([1, 3])
        #expect(shared == same)
        #expect(shared == equal)
        #expect(shared != different)
        #expect(shared != StoredValues([.text("a")]))
        #expect(equal.description == "['a', x'0102' (2 bytes)]")
    }

    @Test func valuesAreReleasedWithTheirStorage() {
        // A blob's bytes are shared with the values while they live; afterwards the array is the bytes' only
        // owner again, so changing it doesn't copy it. Were a value leaked, the change would move the bytes.
        var bytes = [UInt8](repeating: 1, count: 64)
        let address = bytes.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        do {
            var values = StoredValues(repeating: .null, count: 2)
            values[1] = .blob(bytes)
            values.append(.blob(bytes))
            var copy = values
            copy[0] = .blob(bytes)
            #expect(copy.count == 3)
        }
        let addressAfterChange = bytes.withUnsafeMutableBufferPointer { buffer in
            buffer[0] = 2
            return UInt(bitPattern: buffer.baseAddress)
        }
        #expect(addressAfterChange == address)
    }
}
