import Foundation
import SwiftData
import Testing

// As in Apple's sample: two to-many relationships of a backyard name the same to-one as their inverse.
@Model final class SharedBackyard {
    var name: String
    @Relationship(deleteRule: .cascade, inverse: \SharedPlant.backyard) var leadingPlants: [SharedPlant] = []
    @Relationship(inverse: \SharedPlant.backyard) var trailingPlants: [SharedPlant] = []
    init(name: String) { self.name = name }
}

@Model final class SharedPlant {
    var species: String
    var backyard: SharedBackyard?
    init(species: String) { self.species = species }
}

@Suite struct SharedInverseTests {
    private func makeContainer(_ kind: StoreKind) throws -> ModelContainer {
        try freshContainer(kind, SharedBackyard.self, SharedPlant.self)
    }

    @Test(arguments: StoreKind.all) func eachRelationshipReadsBackExactlyWhatWasWrittenToIt(_ kind: StoreKind) throws {
        let container = try makeContainer(kind)
        let context = ModelContext(container)
        let yard = SharedBackyard(name: "Home")
        context.insert(yard)
        let fern = SharedPlant(species: "Fern")
        let rose = SharedPlant(species: "Rose")
        let ivy = SharedPlant(species: "Ivy")
        yard.leadingPlants = [fern, rose]
        yard.trailingPlants.append(ivy)
        #expect(fern.backyard === yard)
        #expect(ivy.backyard === yard)
        #expect(yard.leadingPlants.map(\.species) == ["Fern", "Rose"])
        #expect(yard.trailingPlants.map(\.species) == ["Ivy"])
        try context.save()

        let fresh = ModelContext(container)
        let fetched = try #require(try fresh.fetch(FetchDescriptor<SharedBackyard>()).first)
        #expect(fetched.leadingPlants.map(\.species).sorted() == ["Fern", "Rose"])
        #expect(fetched.trailingPlants.map(\.species) == ["Ivy"])
        #expect(fetched.trailingPlants.first?.backyard === fetched)
        let leading = try fresh.fetch(
            FetchDescriptor<SharedBackyard>(
                predicate: #Predicate {
                    $0.trailingPlants.contains { $0.species == "Rose" }
                }))
        #expect(leading.isEmpty)
    }

    @Test(arguments: StoreKind.all) func movingAPlantTakesItOutOfEveryListOfItsOldBackyard(_ kind: StoreKind) throws {
        let context = ModelContext(try makeContainer(kind))
        let home = SharedBackyard(name: "Home")
        let park = SharedBackyard(name: "Park")
        context.insert(home)
        context.insert(park)
        let fern = SharedPlant(species: "Fern")
        home.leadingPlants.append(fern)
        park.trailingPlants.append(fern)
        #expect(fern.backyard === park)
        #expect(home.leadingPlants.isEmpty)
        #expect(park.trailingPlants.map(\.species) == ["Fern"])
        fern.backyard = nil
        #expect(park.trailingPlants.isEmpty)
        try context.save()
        #expect(
            try ModelContext(context.container).fetch(FetchDescriptor<SharedBackyard>()).allSatisfy {
                $0.leadingPlants.isEmpty && $0.trailingPlants.isEmpty
            })
    }

    @Test(arguments: StoreKind.all) func deleteRulesApplyToEachRelationshipAlone(_ kind: StoreKind) throws {
        let container = try makeContainer(kind)
        let context = ModelContext(container)
        let yard = SharedBackyard(name: "Home")
        context.insert(yard)
        yard.leadingPlants = [SharedPlant(species: "Fern")]
        yard.trailingPlants = [SharedPlant(species: "Ivy")]
        try context.save()
        let ivy = try #require(yard.trailingPlants.first)
        context.delete(ivy)
        #expect(yard.trailingPlants.isEmpty)
        try context.save()
        context.delete(yard)
        try context.save()
        // Cascade deleted the leading plant; the trailing list (nullify) had nothing left to keep.
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<SharedPlant>()) == 0)
    }
}
