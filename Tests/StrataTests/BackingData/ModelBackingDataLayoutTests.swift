import Strata
import Testing

/// Every model a fetch makes carries a backing data header; what it weighs is what a million fetched models weigh
/// beyond their values (BENCHMARKS.md, "Heap held per model").
@Suite struct ModelBackingDataLayoutTests {
    @Test func theHeaderHoldsOnlyWhatAnUnchangedModelNeeds() {
        // 104 bytes: the count, state and key flag in one word, eight words of bookkeeping and the relationship
        // links. Saved values, the store and what changes need live elsewhere (the side state, the context
        // reference), so a new field here is a cost every fetched model pays.
        #expect(MemoryLayout<ModelBackingData.Fields>.size <= 104)
    }
}
