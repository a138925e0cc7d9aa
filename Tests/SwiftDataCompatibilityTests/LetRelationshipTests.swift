import Foundation
import SwiftData
import Testing

@Model final class LetOwner {
    var name: String
    init(name: String) { self.name = name }
}

@Model final class LetPet {
    let owner: LetOwner
    var name: String
    init(owner: LetOwner, name: String) {
        self.owner = owner
        self.name = name
    }
}

@Model final class LetPlace {
    var name: String
    init(name: String) { self.name = name }
}

@Model final class LetVisit {
    let place: LetPlace
    let companions: [LetPlace]
    var note: String
    init(place: LetPlace, companions: [LetPlace], note: String) {
        self.place = place
        self.companions = companions
        self.note = note
    }
}

@Model final class LetBranch {
    var name: String
    let parent: LetBranch?
    init(name: String, parent: LetBranch?) {
        self.name = name
        self.parent = parent
    }
}

/// `let` relationships, which a model reads from the store as it is made (SwiftData apps declare them as
/// `let geo: Geo`): fetching their owners must not wait on the fetch that is making them. The time limit catches that
/// hang, which never ends; it is generous because a full parallel run on two busy cores can queue these tests for
/// over a minute before they finish (each takes milliseconds alone).
@Suite(.timeLimit(.minutes(5))) struct LetRelationshipTests {
    @Test(arguments: StoreKind.all) func aLetToOneIsSavedAndReadBack(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, LetPet.self, LetOwner.self)
        let context = ModelContext(container)
        context.insert(LetPet(owner: LetOwner(name: "Ada"), name: "Rex"))
        try context.save()
        let reader = ModelContext(container)
        let pet = try #require(try reader.fetch(FetchDescriptor<LetPet>()).first)
        #expect(pet.owner.name == "Ada")
        #expect(try reader.fetchCount(FetchDescriptor<LetOwner>()) == 1)
    }

    @Test(arguments: StoreKind.all) func fetchingModelsWithLetRelationshipsReadsThemBack(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, LetPlace.self, LetVisit.self)
        let context = ModelContext(container)
        let lisbon = LetPlace(name: "Lisbon")
        let visit = LetVisit(
            place: lisbon, companions: [LetPlace(name: "Ana"), LetPlace(name: "Rui")], note: "spring")
        context.insert(visit)
        try context.save()

        let reader = ModelContext(container)
        let visits = try reader.fetch(FetchDescriptor<LetVisit>())
        #expect(visits.map(\.note) == ["spring"])
        #expect(visits.first?.place.name == "Lisbon")
        #expect(visits.first?.companions.map(\.name).sorted() == ["Ana", "Rui"])
        // The place a visit loaded is the context's one model of that row.
        let places = try reader.fetch(FetchDescriptor<LetPlace>(predicate: #Predicate { $0.name == "Lisbon" }))
        #expect(places.first === visits.first?.place)
    }

    @Test(arguments: StoreKind.all) func aChainOfLetParentsLoadsAsOneModelPerRow(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, LetBranch.self)
        let context = ModelContext(container)
        let root = LetBranch(name: "root", parent: nil)
        let trunk = LetBranch(name: "trunk", parent: root)
        context.insert(LetBranch(name: "leaf", parent: trunk))
        try context.save()

        let reader = ModelContext(container)
        let branches = try reader.fetch(FetchDescriptor<LetBranch>(sortBy: [SortDescriptor(\.name)]))
        #expect(branches.map(\.name) == ["leaf", "root", "trunk"])
        let byName = Dictionary(uniqueKeysWithValues: branches.map { ($0.name, $0) })
        #expect(byName["leaf"]?.parent === byName["trunk"])
        #expect(byName["trunk"]?.parent === byName["root"])
        #expect(byName["root"]?.parent == nil)
        #expect(try reader.fetchCount(FetchDescriptor<LetBranch>()) == 3)
    }
}
