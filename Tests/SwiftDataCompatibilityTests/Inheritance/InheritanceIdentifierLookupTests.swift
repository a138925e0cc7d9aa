import Foundation
import SwiftData
import Testing

/// A helper as model-actor packages write theirs: it looks models up through the hierarchy's base class.
@ModelActor actor AnimalLookup {
    func name(of identifier: PersistentIdentifier) -> String? {
        (modelContext.model(for: identifier) as? Animal)?.name
    }

    func subscriptName(of identifier: PersistentIdentifier) -> String? {
        self[identifier, as: Animal.self]?.name
    }

    func fetchedName(of identifier: PersistentIdentifier) throws -> String? {
        try modelContext.fetch(FetchDescriptor<Animal>(predicate: #Predicate { $0.persistentModelID == identifier }))
            .first?.name
    }
}

/// An identifier of a subclass's row finds that row wherever the hierarchy's base class (or a class between) is
/// asked, as SwiftData's lookups do: a fetch of `Animal` holds dogs, so `Animal`'s lookups by identifier find them.
@Suite struct InheritanceIdentifierLookupTests {
    private struct Seeded {
        let container: ModelContainer
        let rex: PersistentIdentifier
        let bit: PersistentIdentifier
        let tom: PersistentIdentifier
        let generic: PersistentIdentifier
    }

    private func seeded(_ kind: StoreKind) throws -> Seeded {
        let container = try freshContainer(kind, Animal.self, Dog.self, Puppy.self, Cat.self, Keeper.self)
        let context = ModelContext(container)
        let generic = Animal(name: "Generic", legs: 2)
        let rex = Dog(name: "Rex", breed: "Collie")
        let bit = Puppy(name: "Bit", breed: "Collie", ageInWeeks: 8)
        let tom = Cat(name: "Tom", lives: 7)
        for animal in [generic, rex, bit, tom] { context.insert(animal) }
        try context.save()
        return Seeded(
            container: container, rex: rex.persistentModelID, bit: bit.persistentModelID,
            tom: tom.persistentModelID, generic: generic.persistentModelID)
    }

    private func names<T: PersistentModel>(_ context: ModelContext, _ predicate: Predicate<T>) throws -> [String]
    where T: Animal {
        try context.fetch(FetchDescriptor<T>(predicate: predicate)).map(\.name).sorted()
    }

    @Test(arguments: StoreKind.all) func identifierPredicatesOverTheBaseFindSubclassRows(_ kind: StoreKind) throws {
        let seeded = try seeded(kind)
        let context = ModelContext(seeded.container)
        let rex = seeded.rex
        let bit = seeded.bit
        let tom = seeded.tom
        #expect(rex.entityName == "Dog")
        #expect(try names(context, #Predicate<Animal> { $0.persistentModelID == rex }) == ["Rex"])
        #expect(try names(context, #Predicate<Animal> { $0.persistentModelID != rex }) == ["Bit", "Generic", "Tom"])
        let ids = [rex, tom]
        #expect(try names(context, #Predicate<Animal> { ids.contains($0.persistentModelID) }) == ["Rex", "Tom"])
        #expect(try names(context, #Predicate<Animal> { !ids.contains($0.persistentModelID) }) == ["Bit", "Generic"])
        // A class between the base and the row's class, and a sibling's identifier, which no dog has.
        #expect(try names(context, #Predicate<Dog> { $0.persistentModelID == bit }) == ["Bit"])
        #expect(try names(context, #Predicate<Dog> { $0.persistentModelID == tom }).isEmpty)
        #expect(try names(context, #Predicate<Dog> { $0.persistentModelID != tom }) == ["Bit", "Rex"])
        let bitOnly = FetchDescriptor<Animal>(predicate: #Predicate { $0.persistentModelID == bit })
        #expect(try context.fetchCount(bitOnly) == 1)
    }

    @Test(arguments: StoreKind.all) func aToOneComparedWithASubclassIdentifier(_ kind: StoreKind) throws {
        let seeded = try seeded(kind)
        let context = ModelContext(seeded.container)
        let keeper = Keeper(name: "Sam")
        context.insert(keeper)
        keeper.favourite = try #require(context.model(for: seeded.rex) as? Animal)
        try context.save()
        let rex = seeded.rex
        let found = try ModelContext(seeded.container).fetch(
            FetchDescriptor<Keeper>(predicate: #Predicate { $0.favourite?.persistentModelID == rex }))
        #expect(found.map(\.name) == ["Sam"])
    }

    @Test(arguments: StoreKind.all) func unsavedSubclassModelsMatchTheirIdentifiers(_ kind: StoreKind) throws {
        let seeded = try seeded(kind)
        let context = ModelContext(seeded.container)
        let ace = Dog(name: "Ace", breed: "Pug")
        context.insert(ace)
        let id = ace.persistentModelID
        #expect(try names(context, #Predicate<Animal> { $0.persistentModelID == id }) == ["Ace"])
        let rex = seeded.rex
        let ids = [id, rex]
        #expect(try names(context, #Predicate<Animal> { ids.contains($0.persistentModelID) }) == ["Ace", "Rex"])
    }

    @Test(arguments: StoreKind.all) func modelActorLookupsThroughTheBaseFindSubclassModels(
        _ kind: StoreKind
    ) async throws {
        let seeded = try seeded(kind)
        let lookup = AnimalLookup(modelContainer: seeded.container)
        #expect(await lookup.name(of: seeded.bit) == "Bit")
        #expect(await lookup.subscriptName(of: seeded.rex) == "Rex")
        #expect(try await lookup.fetchedName(of: seeded.tom) == "Tom")
        #expect(try await lookup.fetchedName(of: seeded.generic) == "Generic")
    }

    @Test(arguments: StoreKind.all) func contextLookupsThroughTheBaseFindSubclassModels(_ kind: StoreKind) throws {
        let seeded = try seeded(kind)
        let context = ModelContext(seeded.container)
        let unread: Animal? = context.registeredModel(for: seeded.rex)
        #expect(unread == nil, "nothing was read yet")
        let rex = try #require(context.model(for: seeded.rex) as? Animal)
        #expect(rex.name == "Rex")
        let registered: Animal? = context.registeredModel(for: seeded.rex)
        #expect(registered === rex)
        let existing: Animal = try context.existingModel(for: seeded.bit)
        #expect(existing is Puppy)
        let asDog: Dog? = context.registeredModel(for: seeded.bit)
        #expect(asDog === existing)
        let wrongClass: Cat? = context.registeredModel(for: seeded.bit)
        #expect(wrongClass == nil)
    }

    @Test(arguments: StoreKind.all) func identifiersOfABaseFetchNameEachRowsOwnClass(_ kind: StoreKind) throws {
        let seeded = try seeded(kind)
        let context = ModelContext(seeded.container)
        let identifiers = try context.fetchIdentifiers(FetchDescriptor<Animal>())
        #expect(Set(identifiers) == [seeded.rex, seeded.bit, seeded.tom, seeded.generic])
        let dogs = try context.fetchIdentifiers(FetchDescriptor<Dog>())
        #expect(Set(dogs) == [seeded.rex, seeded.bit])
    }

    @Test(arguments: StoreKind.all) func aBaseIdentifierOfASubclassRowFindsIt(_ kind: StoreKind) throws {
        let seeded = try seeded(kind)
        // An identifier naming the base for a dog's row, as one decoded from an older record would.
        let data = try JSONEncoder().encode(seeded.rex)
        let json = try #require(String(data: data, encoding: .utf8))
            .replacingOccurrences(of: "\"Dog\"", with: "\"Animal\"")
        let baseIdentifier = try JSONDecoder().decode(PersistentIdentifier.self, from: Data(json.utf8))
        #expect(baseIdentifier.entityName == "Animal")
        let context = ModelContext(seeded.container)
        let found = try #require(context.model(for: baseIdentifier) as? Dog)
        #expect(found.name == "Rex")
        #expect(try names(context, #Predicate<Animal> { $0.persistentModelID == baseIdentifier }) == ["Rex"])
        #expect(try names(context, #Predicate<Dog> { $0.persistentModelID == baseIdentifier }) == ["Rex"])
    }
}
