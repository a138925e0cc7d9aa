import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

@Suite("ModelBackingData values")
struct ModelBackingDataValuesTests {
    @Test func newBackingDataHoldsOneNullPerProperty() {
        let data = ModelBackingData.make(propertyCount: 3)
        #expect(Array(data.values) == [.null, .null, .null])
        #expect(data.state == .detached && data.primaryKey == nil && data.unloadedProperties == nil)
    }

    @Test func writesGoToTheBackingDataAndMoveTheVersion() {
        let data = ModelBackingData.make(propertyCount: 3)
        let start = data.values.version
        data.values[0] = .text("Dune")
        data.values.withUnsafeMutableValues { $0[2] = .integer(7) }
        #expect(Array(data.values) == [.text("Dune"), .null, .integer(7)])
        #expect(data.values.version == start + 2)
        _ = data.values[0]
        _ = data.values.withUnsafeValues { $0.count }
        #expect(data.values.version == start + 2, "reads leave the version alone")
    }

    @Test func aCopyKeepsItsValuesWhenTheBackingDataChanges() {
        let data = ModelBackingData.make(propertyCount: 2)
        data.values[0] = .text("Dune")
        var copy = data.values.copy
        data.values[0] = .text("Emma")
        #expect(copy == [.text("Dune"), .null])
        copy[1] = .real(1.5)
        data.values.replace(with: copy)
        #expect(Array(data.values) == [.text("Dune"), .real(1.5)])
    }

    @Test(arguments: [1, 2, 7, 8, 9, 16, 17, 40])
    func everyKindOfValueKeepsItsPlaceAmongItsNeighbours(count: Int) {
        // Each value is a slot and a tag after all the slots: a write to one must leave every other as it was,
        // whatever the count (the tags' bytes are rounded up to whole words).
        let samples: [StoredValue] = [
            .integer(-7), .real(2.5), .text("Dune"), .blob([1, 2, 3]), .null,
            .text(String(repeating: "a long title, stored out of line ", count: 3)), .integer(.max), .real(-0.0),
        ]
        let data = ModelBackingData.make(propertyCount: count)
        var expected = [StoredValue](repeating: .null, count: count)
        #expect(Array(data.values) == expected)
        for round in 0..<3 {
            for index in 0..<count {
                let value = samples[(index + round * 3) % samples.count]
                data.values[index] = value
                expected[index] = value
                #expect(Array(data.values) == expected, "round \(round), value \(index) of \(count)")
            }
        }
        for index in 0..<count {
            #expect(data.values.withUnsafeValues { $0.isNull(index) } == (expected[index] == .null))
        }
    }

    @Test func valuesAreReleasedWithTheBackingData() {
        // A blob's bytes are shared with the values while they live; afterwards the array is the bytes' only
        // owner again, so changing it doesn't copy it. Were a value leaked, the change would move the bytes.
        var bytes = [UInt8](repeating: 1, count: 64)
        let address = bytes.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        do {
            let data = ModelBackingData.make(propertyCount: 3)
            data.values[1] = .blob(bytes)
            data.values[1] = .blob(bytes)
            data.values[2] = .text(String(repeating: "long text, not small ", count: 4))
            data.values.replace(with: [.blob(bytes), .blob(bytes), .null])
            #expect(data.values.count == 3)
        }
        let addressAfterChange = bytes.withUnsafeMutableBufferPointer { buffer in
            buffer[0] = 2
            return UInt(bitPattern: buffer.baseAddress)
        }
        #expect(addressAfterChange == address)
    }
}
