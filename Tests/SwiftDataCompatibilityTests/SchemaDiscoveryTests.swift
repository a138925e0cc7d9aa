import Foundation
import SwiftData
import Testing

@Model final class DiscoveryTrip {
    var name: String
    @Relationship(deleteRule: .cascade, inverse: \DiscoveryBucketListItem.trip)
    var bucketList: [DiscoveryBucketListItem] = []
    var livingAccommodation: DiscoveryLivingAccommodation?

    init(name: String) { self.name = name }
}

@Model final class DiscoveryBucketListItem {
    var title: String
    var trip: DiscoveryTrip?
    var activity: DiscoveryActivity?

    init(title: String) { self.title = title }
}

@Model final class DiscoveryLivingAccommodation {
    var address: String
    var trip: DiscoveryTrip?

    init(address: String) { self.address = address }
}

@Model final class DiscoveryActivity {
    var kind: String
    init(kind: String) { self.kind = kind }
}

/// `ModelContainer(for: Trip.self)` stores every model a trip reaches through relationships, as SwiftData does.
@Suite struct SchemaDiscoveryTests {
    @Test(arguments: StoreKind.all) func containerForOneModelStoresTheModelsItReaches(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, DiscoveryTrip.self)
        let context = ModelContext(container)
        let trip = DiscoveryTrip(name: "Lisbon")
        context.insert(trip)
        let item = DiscoveryBucketListItem(title: "Tram 28")
        item.activity = DiscoveryActivity(kind: "sightseeing")
        trip.bucketList.append(item)
        trip.livingAccommodation = DiscoveryLivingAccommodation(address: "Rua Augusta 1")
        try context.save()

        let reader = ModelContext(container)
        let items = try reader.fetch(FetchDescriptor<DiscoveryBucketListItem>())
        #expect(items.map(\.title) == ["Tram 28"])
        #expect(items.first?.trip?.name == "Lisbon")
        #expect(items.first?.activity?.kind == "sightseeing")
        #expect(try reader.fetchCount(FetchDescriptor<DiscoveryLivingAccommodation>()) == 1)
    }

    @Test func schemaListsTheGivenModelsFirstThenTheDiscoveredOnes() {
        let schema = Schema([DiscoveryTrip.self])
        #expect(
            schema.entities.map(\.name)
                == ["DiscoveryTrip", "DiscoveryBucketListItem", "DiscoveryLivingAccommodation", "DiscoveryActivity"])
        let fromItem = Schema([DiscoveryActivity.self, DiscoveryBucketListItem.self])
        #expect(
            fromItem.entities.map(\.name)
                == ["DiscoveryActivity", "DiscoveryBucketListItem", "DiscoveryTrip", "DiscoveryLivingAccommodation"])
    }
}
