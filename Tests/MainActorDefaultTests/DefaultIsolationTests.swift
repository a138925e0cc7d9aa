import Foundation
import StrataTestSupport
import SwiftData
import Testing

@Suite struct DefaultIsolationTests {
    private func makeContainer(_ kind: StoreKind) throws -> ModelContainer {
        try kind.freshContainer(Schema([Item.self, Tag.self]))
    }

    @Test(arguments: StoreKind.all)
    func aModelActorInsertsFetchesAndChangesModels(_ kind: StoreKind) async throws {
        let container = try makeContainer(kind)
        let importer = ItemImporter(modelContainer: container)
        #expect(try await importer.importItems(["alpha", "beta", "gamma"]) == 3)
        #expect(try await importer.titles(minimumPriority: 1) == ["gamma", "beta"])
        try await importer.bumpAll()

        let fetched = try ModelContext(container).fetch(FetchDescriptor<Item>(sortBy: [SortDescriptor(\.priority)]))
        #expect(fetched.map(\.priority) == [1, 2, 3])
        let id = try #require(fetched.first?.persistentModelID)
        #expect(await importer.tagNames(of: id) == ["imported"])
    }

    @Test(arguments: StoreKind.all)
    func nonisolatedCodeReadsModelsWithKeyPathsAndPredicates(_ kind: StoreKind) async throws {
        let container = try makeContainer(kind)
        let context = ModelContext(container)
        context.insert(Item(timestamp: .now, title: "b", priority: 1))
        context.insert(Item(timestamp: .now, title: "a", priority: 1))
        context.insert(Item(timestamp: .now, title: "c", priority: 0))
        try context.save()

        #expect(try storedTitles(in: container) == ["c", "a", "b"])
        let detached = try await Task.detached { try storedTitles(in: container) }.value
        #expect(detached == ["c", "a", "b"])
        #expect(try ItemColumn().values(in: ModelContext(container)) == ["a", "b", "c"])
    }

    @Test(arguments: StoreKind.all)
    func aModelIsSendableToAnotherTaskWithItsContainer(_ kind: StoreKind) async throws {
        let container = try makeContainer(kind)
        let item = Item(timestamp: .now, title: "sent")
        // Uninserted, the model belongs to no context, so handing it to one task at a time is safe.
        let inserted = try await Task.detached {
            let context = ModelContext(container)
            context.insert(item)
            item.bump()
            try context.save()
            return item.persistentModelID
        }.value
        let fetched = try #require(ModelContext(container).model(for: inserted) as? Item)
        #expect(fetched.title == "sent")
        #expect(fetched.priority == 1)
    }
}

@Suite struct DefaultIsolationAttributeTests {
    @Test(arguments: StoreKind.all)
    func appDefinedValueTypesAreStoredAndQueried(_ kind: StoreKind) throws {
        let container = try kind.freshContainer(Schema([Journal.self]))
        let context = ModelContext(container)
        let busy = Journal(title: "work", mood: .busy)
        busy.moods = [.busy, .calm]
        busy.spot = Spot(city: "Porto", floor: 2)
        context.insert(busy)
        context.insert(Journal(title: "home"))
        try context.save()

        let reader = ModelContext(container)
        let wanted = Mood.busy
        let found = try reader.fetch(FetchDescriptor<Journal>(predicate: #Predicate { $0.mood == wanted }))
        #expect(found.map(\.title) == ["work"])
        #expect(found.first?.moods == [.busy, .calm])
        #expect(found.first?.spot == Spot(city: "Porto", floor: 2))
        #expect(found.first?.heading == "WORK")
        let inPorto = try reader.fetch(FetchDescriptor<Journal>(predicate: #Predicate { $0.spot.city == "Porto" }))
        #expect(inPorto.count == 1)
        let sorted = try reader.fetch(FetchDescriptor<Journal>()).sorted()
        #expect(sorted.map(\.description) == ["Journal(home)", "Journal(work)"])
    }

    @Test(arguments: StoreKind.all)
    func anUnmarkedEnumAndAStructAreStoredAndQueriedOnAnyActor(_ kind: StoreKind) async throws {
        let container = try kind.freshContainer(Schema([Parcel.self]))
        // Stored from nonisolated code, as a model actor stores them.
        try await Task.detached {
            let context = ModelContext(container)
            let parcel = Parcel(address: Address(street: "Rua Augusta 1", city: "Lisbon"), status: .shipped)
            parcel.trail = [.open, .shipped]
            context.insert(parcel)
            context.insert(Parcel(address: Address(street: "Rua das Flores 2", city: "Porto")))
            try context.save()
        }.value

        let context = ModelContext(container)
        let shipped = Status.shipped
        let moving = try context.fetch(FetchDescriptor<Parcel>(predicate: #Predicate { $0.status == shipped }))
        #expect(moving.map(\.address) == [Address(street: "Rua Augusta 1", city: "Lisbon")])
        #expect(moving.first?.trail == [.open, .shipped])
        let inPorto = #Predicate<Parcel> { $0.status.rawValue == "open" && $0.address.city == "Porto" }
        let open = try context.fetch(FetchDescriptor<Parcel>(predicate: inPorto))
        #expect(open.map(\.address.street) == ["Rua das Flores 2"])
        let detachedCount = try await Task.detached {
            let delivered = Status.delivered
            return try ModelContext(container).fetchCount(
                FetchDescriptor<Parcel>(predicate: #Predicate { $0.status != delivered }))
        }.value
        #expect(detachedCount == 2)
    }

    @Test func aModelsOwnEqualityInAPlainExtensionIsUsedOffTheMainActor() async {
        let labels = [Label(code: "red"), Label(code: "red"), Label(code: "blue")]
        #expect(labels[0] == labels[1])
        #expect(await Task.detached { distinctLabelCodes(labels) }.value == 2)
    }
}
