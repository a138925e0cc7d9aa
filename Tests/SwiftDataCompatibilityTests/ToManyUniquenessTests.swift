import Foundation
import SwiftData
import Testing

@Model final class UniquenessYard {
    var name: String
    @Relationship(deleteRule: .cascade, inverse: \UniquenessVisit.yard) var visits: [UniquenessVisit] = []
    init(name: String) { self.name = name }
}

@Model final class UniquenessVisit {
    var species: String
    var yard: UniquenessYard?
    init(species: String) { self.species = species }
}

/// A to-many relationship holds each model once, as SwiftData's does, however app code spells the assignment.
@Suite struct ToManyUniquenessTests {
    @Test(arguments: StoreKind.all) func settingTheInverseThenInsertingKeepsOneVisit(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, UniquenessYard.self, UniquenessVisit.self)
        let context = ModelContext(container)
        let yard = UniquenessYard(name: "Back")
        context.insert(yard)
        yard.visits.append(UniquenessVisit(species: "robin"))
        try context.save()

        // Written as Backyard Birds writes it: the inverse first, then the array.
        let visit = UniquenessVisit(species: "wren")
        visit.yard = yard
        yard.visits.insert(visit, at: 0)
        #expect(yard.visits.map(\.species) == ["wren", "robin"])
        yard.visits.append(visit)
        #expect(yard.visits.count == 2)
        try context.save()

        let stored = try #require(try ModelContext(container).fetch(FetchDescriptor<UniquenessYard>()).first)
        #expect(stored.visits.map(\.species).sorted() == ["robin", "wren"])
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<UniquenessVisit>()) == 2)
    }

    @Test(arguments: StoreKind.all) func anArrayWithARepeatedModelStoresItOnce(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, UniquenessYard.self, UniquenessVisit.self)
        let context = ModelContext(container)
        let jay = UniquenessVisit(species: "jay")
        let yard = UniquenessYard(name: "Front")
        yard.visits = [jay, UniquenessVisit(species: "finch"), jay]
        context.insert(yard)
        #expect(yard.visits.map(\.species) == ["jay", "finch"])
        try context.save()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<UniquenessVisit>()) == 2)
        #expect(jay.yard === yard)
    }
}
