import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

/// A save can be made to apply only while a statement run first in its transaction changes a row: how a sync hub
/// applies a device's batch once.
@Suite("Save conditions")
struct StoreSaveConditionTests {
    /// A condition touching the trip named `name`, which changes a row only if there is one.
    private func condition(_ entity: Schema.Entity, touching name: String) -> StoreSaveCondition {
        StoreSaveCondition(
            """
            UPDATE \(identifier: entity.tableName) SET \(identifier: "days") = \(identifier: "days") \
            WHERE \(identifier: "name") = \(bind: .text(name))
            """,
            entity: entity, description: "no trip named \(name)")
    }

    @Test(
        "A met condition lets the save write; an unmet one writes nothing and keeps the changes",
        arguments: StoreKind.all)
    func conditionsDecideTheWholeSave(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        let container = try store.container(TripBase.Trip.self)
        let entity = try #require(container.schema.entity(named: "Trip"))
        let context = ModelContext(container)
        context.insert(TripBase.Trip(name: "Lisbon", days: 3))
        try context.save()

        context.insert(TripBase.Trip(name: "Porto", days: 2))
        #expect(throws: StoreSaveConditionUnmet.self) {
            try context.save(requiring: [condition(entity, touching: "Lisbon"), condition(entity, touching: "Oslo")])
        }
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<TripBase.Trip>()) == 1)
        #expect(context.hasChanges)

        try context.save(requiring: [condition(entity, touching: "Lisbon")])
        let names = try ModelContext(container).fetch(FetchDescriptor<TripBase.Trip>()).map(\.name).sorted()
        #expect(names == ["Lisbon", "Porto"])
        #expect(!context.hasChanges)
    }
}
