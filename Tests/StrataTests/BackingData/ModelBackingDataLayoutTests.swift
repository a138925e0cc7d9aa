import Strata
import Testing

/// Every model a fetch makes carries a backing data header; what it weighs is what a million fetched models weigh
/// beyond their values (BENCHMARKS.md, "Heap held per model").
@Suite struct ModelBackingDataLayoutTests {
    @Test func theHeaderHoldsOnlyWhatAnUnchangedModelNeeds() {
        // 112 bytes: the count, state, key and registrar flags in one word, eight words of bookkeeping, the
        // relationship links and the word the observation registrar is kept in once a read makes it (the model
        // itself has none). Saved values, the store and what changes need live elsewhere (the side state, the
        // context reference), so a new field here is a cost every fetched model pays.
        #expect(MemoryLayout<ModelBackingData.Fields>.size <= 112)
    }
}
