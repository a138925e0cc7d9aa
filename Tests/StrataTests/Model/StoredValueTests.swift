import Testing

@testable import Strata
@testable import StrataTestFixtures

@Suite("StoredValue")
struct StoredValueTests {
    @Test func shortValuesDescribeInFull() {
        #expect(StoredValue.null.description == "NULL")
        #expect(StoredValue.integer(-7).description == "-7")
        #expect(StoredValue.real(2.5).description == "2.5")
        #expect(StoredValue.text("Café").description == "'Café'")
        #expect(StoredValue.blob([0, 171, 255]).description == "x'00abff' (3 bytes)")
    }

    @Test func longTextAndBlobsAreCut() {
        let text = StoredValue.text(String(repeating: "é", count: 1_000)).description
        #expect(text.count < 70)
        #expect(text.hasSuffix("…'"))
        let blob = StoredValue.blob(Array(repeating: 1, count: 1_000)).description
        #expect(blob.count < 90)
        #expect(blob.hasSuffix("(1000 bytes)"))
    }
}
