import Foundation
import Strata
import Testing
@testable import StrataTestFixtures

@Model final class LiveOwner {
    var name: String
    init(name: String) { self.name = name }
}

@Model final class LiveItem {
    var title: String
    var owner: LiveOwner?
    init(title: String, owner: LiveOwner? = nil) {
        self.title = title
        self.owner = owner
    }
}

@MainActor
@Suite("ResultsObserver: relationships")
struct ResultsObserverRelationshipTests {
    @Test(arguments: StoreKind.all) func reassigningAToOneInAnotherContextUpdatesTheRowAndItsTarget(
        _ kind: StoreKind
    ) async throws {
        let container = try freshContainer(kind, LiveOwner.self, LiveItem.self)
        let writer = ModelContext(container)
        let ann = LiveOwner(name: "Ann")
        let bob = LiveOwner(name: "Bob")
        let item = LiveItem(title: "lamp", owner: ann)
        for model in [ann, bob] as [any PersistentModel] { writer.insert(model) }
        writer.insert(item)
        try writer.save()
        let observer = try ResultsObserver<LiveItem, Never>(modelContainer: container)
        #expect(observer.results.first?.owner?.name == "Ann")
        var published: [ResultsChangeSet] = []
        observer.onChange = { published.append($0.changes) }

        item.owner = bob
        try writer.save()
        #expect(await LiveFixtures.eventually { published.count == 1 })
        #expect(published.first?.updatedIndexes == [0])
        #expect(observer.results.first?.owner?.name == "Bob")
    }

    @Test(arguments: StoreKind.all) func renamingARelatedModelRefreshesAPredicateThroughTheRelationship(
        _ kind: StoreKind
    ) async throws {
        let container = try freshContainer(kind, LiveOwner.self, LiveItem.self)
        let writer = ModelContext(container)
        let ann = LiveOwner(name: "Ann")
        writer.insert(LiveItem(title: "lamp", owner: ann))
        writer.insert(LiveItem(title: "desk", owner: LiveOwner(name: "Bob")))
        try writer.save()
        let observer = try ResultsObserver(
            filterBy: #Predicate<LiveItem> { $0.owner?.name == "Anna" },
            sortBy: [SortDescriptor(\.title)], modelContainer: container)
        #expect(observer.results.isEmpty)
        var published: [ResultsChangeSet] = []
        observer.onChange = { published.append($0.changes) }

        // Only a LiveOwner row changes; the items' own rows don't.
        ann.name = "Anna"
        try writer.save()
        #expect(await LiveFixtures.eventually { published.count == 1 })
        #expect(observer.results.map(\.title) == ["lamp"])
        #expect(observer.results.first?.owner?.name == "Anna")
    }
}
