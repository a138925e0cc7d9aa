import Testing

@testable import Strata
@testable import StrataTestFixtures

/// The storage classes a property accepts without looking at the payload: loading a row lets a value of one of
/// them through unchecked, so each must be a class whose every value the full check accepts.
@Suite("StoredValueCheck: storage classes passing without a payload check")
struct StorageClassesTests {
    static let checks: [StoredValueCheck] = [
        .integer(0...1), .integer(Int64.min...Int64.max), .integer(-128...127), .unsigned,
        .real, .text, .blob(length: nil), .blob(length: 16), .decode,
    ]

    /// Values at the edges of each check.
    static let values: [StoredValue] = [
        .null, .integer(0), .integer(1), .integer(2), .integer(-1), .integer(.min), .integer(.max),
        .real(1.5), .real(-0.0), .text(""), .text("NaN"), .text("00000000000000000012"), .text("abc"),
        .blob([]), .blob([0, 1]), .blob(Array(repeating: 7, count: 16)),
    ]

    @Test(arguments: checks, [false, true])
    func passingClassesOnlyHoldAcceptedValues(_ check: StoredValueCheck, isOptional: Bool) {
        let passing = check.classesPassingWithoutPayload(isOptional: isOptional)
        for value in Self.values where passing.admits(value) {
            #expect(check.accepts(value, isOptional: isOptional) == true, "\(check) let \(value) through")
        }
    }

    @Test("Whole-range integers, reals, text and any-length blobs pass on their class; NULL only when optional")
    func commonTypesPassOnTheirClass() {
        #expect(
            StoredValueCheck.integer(Int64.min...Int64.max).classesPassingWithoutPayload(isOptional: false) == .integer)
        #expect(StoredValueCheck.real.classesPassingWithoutPayload(isOptional: false) == [.integer, .real])
        #expect(StoredValueCheck.text.classesPassingWithoutPayload(isOptional: true) == [.text, .null])
        #expect(StoredValueCheck.blob(length: nil).classesPassingWithoutPayload(isOptional: false) == .blob)
        // A Bool passes the integers 0 and 1 on a bit of their own.
        #expect(StoredValueCheck.integer(0...1).classesPassingWithoutPayload(isOptional: false) == .zeroOrOne)
        #expect(StoredValueCheck.integer(0...1).classesPassingWithoutPayload(isOptional: true) == [.zeroOrOne, .null])
        // These need the payload: a UUID is 16 bytes, an unsigned value not negative, an Int8 within its range.
        #expect(StoredValueCheck.integer(-128...127).classesPassingWithoutPayload(isOptional: false).isEmpty)
        #expect(StoredValueCheck.blob(length: 16).classesPassingWithoutPayload(isOptional: false).isEmpty)
        #expect(StoredValueCheck.unsigned.classesPassingWithoutPayload(isOptional: true) == .null)
        #expect(StoredValueCheck.decode.classesPassingWithoutPayload(isOptional: false).isEmpty)
    }

    @Test("A Bool's classes admit 0 and 1 only; an Int's admit every integer, 0 and 1 included")
    func zeroOrOneAdmitsOnlyBooleanIntegers() {
        let boolean = StoredValueCheck.integer(0...1).classesPassingWithoutPayload(isOptional: false)
        #expect(boolean.admits(.integer(0)) && boolean.admits(.integer(1)))
        for value: StoredValue in [
            .integer(2), .integer(-1), .integer(.min), .integer(.max), .real(1), .text("1"), .null,
        ] {
            #expect(!boolean.admits(value), "\(value)")
        }
        let integer = StoredValueCheck.integer(Int64.min...Int64.max).classesPassingWithoutPayload(isOptional: false)
        for value: StoredValue in [.integer(0), .integer(1), .integer(2), .integer(.min)] {
            #expect(integer.admits(value), "\(value)")
        }
    }

    @Test("Each value reports its own storage class")
    func storageClassOfEachCase() {
        #expect(StoredValue.null.storageClass == .null)
        #expect(StoredValue.integer(3).storageClass == .integer)
        #expect(StoredValue.real(3).storageClass == .real)
        #expect(StoredValue.text("3").storageClass == .text)
        #expect(StoredValue.blob([3]).storageClass == .blob)
    }
}
