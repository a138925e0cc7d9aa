import Foundation
import SwiftData
import Testing

@Suite struct InheritanceFetchTests {
    private func seededContainer(_ kind: StoreKind) throws -> ModelContainer {
        let container = try freshContainer(kind, Animal.self, Dog.self, Puppy.self, Cat.self, Keeper.self)
        let context = ModelContext(container)
        context.insert(Animal(name: "Generic", legs: 2))
        context.insert(Dog(name: "Rex", breed: "Collie"))
        context.insert(Dog(name: "Fido", breed: "Beagle"))
        context.insert(Puppy(name: "Bit", breed: "Collie", ageInWeeks: 8))
        context.insert(Cat(name: "Tom", lives: 7))
        try context.save()
        return container
    }

    @Test(arguments: StoreKind.all) func aFetchOfTheBaseReturnsEveryModelAsItsOwnClass(_ kind: StoreKind) throws {
        let context = ModelContext(try seededContainer(kind))
        let animals = try context.fetch(FetchDescriptor<Animal>(sortBy: [SortDescriptor(\.name)]))
        #expect(animals.map(\.name) == ["Bit", "Fido", "Generic", "Rex", "Tom"])
        #expect(animals.map { String(describing: type(of: $0)) } == ["Puppy", "Dog", "Animal", "Dog", "Cat"])
        let puppy = try #require(animals[0] as? Puppy)
        #expect(puppy.breed == "Collie")
        #expect(puppy.ageInWeeks == 8)
        #expect((animals[4] as? Cat)?.lives == 7)
        #expect(animals[2].legs == 2)
    }

    @Test(arguments: StoreKind.all) func aFetchOfASubclassReturnsOnlyItAndItsSubclasses(_ kind: StoreKind) throws {
        let context = ModelContext(try seededContainer(kind))
        let dogs = try context.fetch(FetchDescriptor<Dog>(sortBy: [SortDescriptor(\.breed), SortDescriptor(\.name)]))
        #expect(dogs.map(\.name) == ["Fido", "Bit", "Rex"])
        #expect(try context.fetch(FetchDescriptor<Cat>()).map(\.name) == ["Tom"])
        #expect(try context.fetch(FetchDescriptor<Puppy>()).map(\.ageInWeeks) == [8])
        #expect(try context.fetchCount(FetchDescriptor<Animal>()) == 5)
        #expect(try context.fetchCount(FetchDescriptor<Dog>()) == 3)
        #expect(try context.fetchCount(FetchDescriptor<Dog>(predicate: #Predicate { $0.breed == "Collie" })) == 2)
    }

    @Test(arguments: StoreKind.all) func typeChecksAndCastsRunInTheStore(_ kind: StoreKind) throws {
        let container = try seededContainer(kind)
        let context = ModelContext(container)
        let cat = try #require(try ModelContext(container).fetch(FetchDescriptor<Cat>()).first)
        let dogs = try context.fetch(
            FetchDescriptor<Animal>(predicate: #Predicate { $0 is Dog }, sortBy: [SortDescriptor(\.name)]))
        #expect(dogs.map(\.name) == ["Bit", "Fido", "Rex"])
        // Filtered in SQL: the cat's row was never read into this context.
        let unread: Cat? = context.registeredModel(for: cat.persistentModelID)
        #expect(unread == nil)
        let collies = try context.fetch(
            FetchDescriptor<Animal>(
                predicate: #Predicate { ($0 as? Dog)?.breed == "Collie" }, sortBy: [SortDescriptor(\.name)]))
        #expect(collies.map(\.name) == ["Bit", "Rex"])
        #expect(try context.fetchCount(FetchDescriptor<Animal>(predicate: #Predicate { !($0 is Dog) })) == 2)
        #expect(
            try context.fetchCount(FetchDescriptor<Animal>(predicate: #Predicate { $0 is Puppy || $0 is Cat })) == 2)
    }

    @Test(arguments: StoreKind.all) func sortingAndLimitsSpanTheHierarchy(_ kind: StoreKind) throws {
        let context = ModelContext(try seededContainer(kind))
        var descriptor = FetchDescriptor<Animal>(sortBy: [SortDescriptor(\.name, order: .reverse)])
        descriptor.fetchLimit = 2
        descriptor.fetchOffset = 1
        #expect(try context.fetch(descriptor).map(\.name) == ["Rex", "Generic"])
        #expect(try context.fetchCount(descriptor) == 2)
    }

    @Test(arguments: StoreKind.all) func theSameRowIsTheSameModelWhicheverClassIsFetched(_ kind: StoreKind) throws {
        let context = ModelContext(try seededContainer(kind))
        let dog = try #require(
            try context.fetch(FetchDescriptor<Dog>(predicate: #Predicate { $0.name == "Rex" })).first)
        let animal = try #require(
            try context.fetch(FetchDescriptor<Animal>(predicate: #Predicate { $0.name == "Rex" })).first)
        #expect(dog === animal)
        #expect(dog.persistentModelID == animal.persistentModelID)
        let found: Animal? = context.registeredModel(for: dog.persistentModelID)
        #expect(found === dog)
    }

    @Test(arguments: StoreKind.all) func changesToInheritedAndOwnPropertiesSave(_ kind: StoreKind) throws {
        let container = try seededContainer(kind)
        let context = ModelContext(container)
        let rex = try #require(
            try context.fetch(FetchDescriptor<Dog>(predicate: #Predicate { $0.name == "Rex" })).first)
        rex.legs = 3
        rex.isTrained = true
        try context.save()
        let again = try #require(
            try ModelContext(container).fetch(FetchDescriptor<Dog>(predicate: #Predicate { $0.isTrained })).first)
        #expect(again.name == "Rex")
        #expect(again.legs == 3)
    }

    @Test(arguments: StoreKind.all) func unsavedSubclassModelsJoinAFetchOfTheBase(_ kind: StoreKind) throws {
        let context = ModelContext(try seededContainer(kind))
        context.insert(Dog(name: "Ace", breed: "Pug"))
        let names = try context.fetch(FetchDescriptor<Animal>(sortBy: [SortDescriptor(\.name)])).map(\.name)
        #expect(names == ["Ace", "Bit", "Fido", "Generic", "Rex", "Tom"])
        #expect(try context.fetchCount(FetchDescriptor<Animal>()) == 6)
        #expect(try context.fetchCount(FetchDescriptor<Cat>()) == 1)
    }

    @Test func theSchemaDescribesTheHierarchy() throws {
        let schema = Schema([Dog.self, Cat.self, Puppy.self])
        let animal = try #require(schema.entity(for: Animal.self))
        let dog = try #require(schema.entity(for: Dog.self))
        #expect(animal.superentity == nil)
        #expect(dog.superentity === animal)
        #expect(dog.superentityName == "Animal")
        #expect(animal.superentityName == nil)
        #expect(schema.entity(for: Puppy.self)?.superentityName == "Dog")
        #expect(animal.subentities.map(\.name).sorted() == ["Cat", "Dog"])
        #expect(dog.subentities.map(\.name) == ["Puppy"])
        #expect(Dog.Root.self == Animal.self)
        #expect(Animal.Root.self == Animal.self)
    }

    // A row is registered under its hierarchy's root, so each entity keeps its root's key from the links the
    // schema makes, in whichever order it lists the classes: a subclass linked before its superclass is.
    @Test func everyEntityOfAHierarchyIsRegisteredUnderItsRootWhateverTheSchemaOrder() throws {
        for schema in [
            Schema([Puppy.self, Dog.self, Cat.self, Animal.self]),
            Schema([Animal.self, Cat.self, Dog.self, Puppy.self]),
        ] {
            let animal = try #require(schema.entity(for: Animal.self))
            #expect(try #require(schema.entity(for: Dog.self)).identityKey == animal.identityKey)
            #expect(try #require(schema.entity(for: Puppy.self)).identityKey == animal.identityKey)
            #expect(try #require(schema.entity(for: Cat.self)).identityKey == animal.identityKey)
            #expect(animal.identityKey == ObjectIdentifier(animal))
        }
    }
}
