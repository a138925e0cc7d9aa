import Testing

@testable import Strata
@testable import StrataTestFixtures

@Suite("FetchScratch: the list of new models reused by consecutive fetches")
struct FetchScratchTests {
    @Test(
        "Two fetches through one scratch register their models and leave the list empty with its room",
        arguments: StoreKind.all)
    func reusedAcrossFetches(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, BatchItem.self)
        let writer = ModelContext(container)
        for position in 0..<8 { writer.insert(BatchItem(position: position, label: "item \(position)")) }
        try writer.save()
        let context = ModelContext(container)
        let scratch = FetchScratch()
        let page = ModelCollector()
        var request = try context.fetchPlan(for: FetchDescriptor<BatchItem>(sortBy: [SortDescriptor(\.position)]))
            .request
        request.limit = 5
        try context.appendModels(request, as: BatchItem.self, to: page, reusing: scratch)
        #expect(scratch.made.isEmpty)
        let room = scratch.made.capacity
        #expect(room >= 5)
        request.offset = 5
        try context.appendModels(request, as: BatchItem.self, to: page, reusing: scratch)
        #expect(scratch.made.isEmpty && scratch.made.capacity == room)
        let models = page.take(as: BatchItem.self)
        #expect(models.map(\.position) == Array(0..<8))
        // Registered: a fetch of the same rows finds the same models.
        let again = try context.fetch(FetchDescriptor<BatchItem>(sortBy: [SortDescriptor(\.position)]))
        #expect(zip(again, models).allSatisfy { $0 === $1 } && again.count == 8)
    }
}
