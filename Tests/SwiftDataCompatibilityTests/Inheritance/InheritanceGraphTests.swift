import Foundation
import SwiftData
import Testing

@Suite struct InheritanceGraphTests {
    private func container(_ kind: StoreKind) throws -> ModelContainer {
        try freshContainer(kind, Keeper.self, Animal.self, Dog.self, Puppy.self, Cat.self)
    }

    @Test(arguments: StoreKind.all) func relationshipsToTheBaseHoldSubclassModels(_ kind: StoreKind) throws {
        let container = try container(kind)
        let context = ModelContext(container)
        let keeper = Keeper(name: "Ann")
        context.insert(keeper)
        let rex = Dog(name: "Rex", breed: "Collie")
        let tom = Cat(name: "Tom")
        keeper.animals = [rex, tom, Animal(name: "Generic")]
        keeper.favourite = rex
        #expect(rex.keeper === keeper)
        try context.save()

        let fresh = ModelContext(container)
        let loaded = try #require(try fresh.fetch(FetchDescriptor<Keeper>()).first)
        let animals = loaded.animals.sorted { $0.name < $1.name }
        #expect(animals.map { String(describing: type(of: $0)) } == ["Animal", "Dog", "Cat"])
        #expect((animals[1] as? Dog)?.breed == "Collie")
        let favourite = try #require(loaded.favourite as? Dog)
        #expect(favourite === animals[1])
        #expect(favourite.keeper === loaded)
        // Through the inverse, in a predicate over the subclass.
        let kept = try fresh.fetch(FetchDescriptor<Dog>(predicate: #Predicate { $0.keeper?.name == "Ann" }))
        #expect(kept.map(\.name) == ["Rex"])
    }

    @Test(arguments: StoreKind.all) func prefetchingReadsSubclassModels(_ kind: StoreKind) throws {
        let container = try container(kind)
        let context = ModelContext(container)
        let keeper = Keeper(name: "Ann")
        context.insert(keeper)
        keeper.favourite = Puppy(name: "Bit", breed: "Pug", ageInWeeks: 6)
        keeper.animals = [Cat(name: "Tom")]
        try context.save()
        var descriptor = FetchDescriptor<Keeper>()
        descriptor.relationshipKeyPathsForPrefetching = [\.favourite, \.animals]
        let fresh = ModelContext(container)
        let loaded = try #require(try fresh.fetch(descriptor).first)
        #expect((loaded.favourite as? Puppy)?.ageInWeeks == 6)
        #expect(loaded.animals.map { String(describing: type(of: $0)) } == ["Cat"])
    }

    @Test(arguments: StoreKind.all) func deleteRulesCascadeThroughTheHierarchy(_ kind: StoreKind) throws {
        let container = try container(kind)
        let context = ModelContext(container)
        let keeper = Keeper(name: "Ann")
        context.insert(keeper)
        keeper.animals = [Dog(name: "Rex", breed: "Collie"), Cat(name: "Tom")]
        try context.save()
        context.delete(keeper)
        try context.save()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Animal>()) == 0)
    }

    @Test(arguments: StoreKind.all) func batchDeleteHonoursIncludeSubclasses(_ kind: StoreKind) throws {
        let container = try container(kind)
        let context = ModelContext(container)
        context.insert(Animal(name: "Generic"))
        context.insert(Dog(name: "Rex", breed: "Collie"))
        context.insert(Puppy(name: "Bit", breed: "Pug", ageInWeeks: 6))
        context.insert(Cat(name: "Tom"))
        try context.save()

        try context.delete(model: Dog.self, includeSubclasses: false)
        try context.save()
        var names = try ModelContext(container).fetch(FetchDescriptor<Animal>(sortBy: [SortDescriptor(\.name)])).map(
            \.name)
        #expect(names == ["Bit", "Generic", "Tom"])

        try context.delete(model: Animal.self, where: #Predicate { $0.name != "Tom" })
        try context.save()
        names = try ModelContext(container).fetch(FetchDescriptor<Animal>()).map(\.name)
        #expect(names == ["Tom"])
        #expect(try ModelContext(container).fetch(FetchDescriptor<Cat>()).map(\.lives) == [9])
    }

    @Test(arguments: StoreKind.all) func historyNamesEachModelsOwnEntity(_ kind: StoreKind) throws {
        let container = try container(kind)
        let context = ModelContext(container)
        context.insert(Dog(name: "Rex", breed: "Collie"))
        context.insert(Cat(name: "Tom"))
        try context.save()
        let transactions = try ModelContext(container).fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        let inserted = transactions.flatMap(\.changes).compactMap { change -> String? in
            guard case .insert(let insert) = change else { return nil }
            return insert.changedPersistentIdentifier.entityName
        }
        #expect(inserted.sorted() == ["Cat", "Dog"])
    }

    @MainActor @Test(arguments: StoreKind.all) func anObserverOfTheBaseSeesANewSubclassModel(
        _ kind: StoreKind
    ) async throws {
        let container = try container(kind)
        container.mainContext.insert(Cat(name: "Tom"))
        try container.mainContext.save()
        let observer = try ResultsObserver(
            fetchDescriptor: FetchDescriptor<Animal>(sortBy: [SortDescriptor(\.name)]),
            modelContext: container.mainContext)
        #expect(observer.results.map(\.name) == ["Tom"])
        let other = ModelContext(container)
        other.insert(Dog(name: "Rex", breed: "Collie"))
        try other.save()
        let deadline = ContinuousClock.now + .seconds(5)
        while observer.results.count != 2, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(observer.results.map(\.name) == ["Rex", "Tom"])
        #expect(observer.results.first is Dog)
    }

    @Test(arguments: StoreKind.all) func aSubclassModelChangedElsewhereIsAConflict(_ kind: StoreKind) throws {
        let container = try container(kind)
        let setup = ModelContext(container)
        setup.insert(Dog(name: "Rex", breed: "Collie"))
        try setup.save()
        let first = ModelContext(container)
        let second = ModelContext(container)
        first.mergePolicy = .error
        second.mergePolicy = .error
        let mine = try #require(try first.fetch(FetchDescriptor<Animal>()).first as? Dog)
        let theirs = try #require(try second.fetch(FetchDescriptor<Dog>()).first)
        theirs.breed = "Beagle"
        try second.save()
        mine.breed = "Pug"
        #expect(throws: (any Error).self) { try first.save() }
    }
}
