import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

@Model class PartialVehicle {
    var name: String
    init(name: String) { self.name = name }
}

@Model final class PartialNote {
    var title: String
    var body: String
    init(title: String, body: String) {
        self.title = title
        self.body = body
    }
}

@Model final class PartialTruck: PartialVehicle {
    var axles: Int = 2
    init(name: String, axles: Int) {
        self.axles = axles
        super.init(name: name)
    }
}

/// Models a fetch read with some properties (`propertiesToFetch`) load the others together, as a list reading one
/// more property of each row does.
@Suite("Partial models load their other properties together")
struct ModelContextPartialModelTests {
    private static let bookCount = 30

    /// A store of `bookCount` books by one author, and a new context holding them fetched with `author` alone.
    private func partialBooks(_ kind: StoreKind) throws -> (ModelContainer, ModelContext, [RelBook]) {
        let container = try freshContainer(kind, RelAuthor.self, RelBook.self, RelChapter.self, RelTag.self)
        let setup = ModelContext(container)
        let author = RelAuthor(name: "Herbert")
        setup.insert(author)
        for number in 0..<Self.bookCount { setup.insert(RelBook(title: "Book \(number)", author: author)) }
        try setup.save()
        let context = ModelContext(container)
        var descriptor = FetchDescriptor<RelBook>(sortBy: [SortDescriptor(\.title)])
        descriptor.propertiesToFetch = [\.author]
        let books = try context.fetch(descriptor)
        #expect(books.count == Self.bookCount)
        return (container, context, books)
    }

    @Test("Reading a left-out property of each model of a list runs one statement, not one per model")
    func oneStatementForTheList() throws {
        let (container, context, books) = try partialBooks(.sqlite)
        let sqlite = try #require(container.store as? SQLiteStore)
        let before = sqlite.executedStatementCount
        let titles = books.map(\.title)
        #expect(sqlite.executedStatementCount - before == 1)
        #expect(titles == (0..<Self.bookCount).map { "Book \($0)" }.sorted())
        withExtendedLifetime(context) {}
    }

    @Test("A long list read in order loads its left-out property for the next 500 models at a time")
    func longListLoadsTheNextModelsEachQuery() throws {
        // Each load takes the next models in the order the fetch returned them, not whichever models of the entity
        // a walk over the identity map meets first (a walk per load made reading a long list cost its square).
        // Fetched in reverse key order, so the two differ: the first 500 of the list are one load.
        let container = try freshContainer(.sqlite, PartialNote.self)
        let setup = ModelContext(container)
        for number in 0..<1_500 {
            let padded = String(repeating: "0", count: 4 - String(number).count) + String(number)
            setup.insert(PartialNote(title: "Note \(padded)", body: "Body \(padded)"))
        }
        try setup.save()
        let context = ModelContext(container)
        var descriptor = FetchDescriptor<PartialNote>(sortBy: [SortDescriptor(\.title, order: .reverse)])
        descriptor.propertiesToFetch = [\.title]
        let notes = try context.fetch(descriptor)
        // A second fetch of some of the same rows registers nothing new: the models stay listed once.
        descriptor.fetchLimit = 10
        _ = try context.fetch(descriptor)
        let sqlite = try #require(container.store as? SQLiteStore)
        var before = sqlite.executedStatementCount
        let firstBodies = notes.prefix(500).map(\.body)
        #expect(sqlite.executedStatementCount - before == 1)
        before = sqlite.executedStatementCount
        let otherBodies = notes.dropFirst(500).map(\.body)
        #expect(sqlite.executedStatementCount - before == 2)
        #expect(firstBodies + otherBodies == notes.map { "Body" + $0.title.dropFirst("Note".count) })
    }

    @Test("Each model gets its own row's values", arguments: StoreKind.all)
    func valuesComeFromEachRow(_ kind: StoreKind) throws {
        let (container, context, books) = try partialBooks(kind)
        defer { withExtendedLifetime(context) {} }
        // Changed elsewhere after the fetch: the load reads the rows as they are now, as a model's own read does.
        let other = ModelContext(container)
        let stored = try other.fetch(FetchDescriptor<RelBook>(predicate: #Predicate { $0.title == "Book 7" }))
        try #require(stored.count == 1)
        stored[0].title = "Book 7, revised"
        try other.save()

        let titles = Set(books.map(\.title))
        #expect(titles.count == Self.bookCount)
        #expect(titles.contains("Book 7, revised"))
        #expect(books.allSatisfy { $0.author?.name == "Herbert" })
    }

    @Test("A model assigned a left-out property keeps what was assigned", arguments: StoreKind.all)
    func assignedPropertyIsKept(_ kind: StoreKind) throws {
        let (_, context, books) = try partialBooks(kind)
        books[3].title = "Assigned"
        let titles = books.map(\.title)
        #expect(titles[3] == "Assigned")
        #expect(Set(titles).count == Self.bookCount)
        try context.save()
        #expect(books[3].title == "Assigned")
    }

    @Test(
        "Subclass models fetched through their superclass load their own properties together",
        arguments: StoreKind.all)
    func subclassPropertiesLoadTogether(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, PartialVehicle.self, PartialTruck.self)
        let setup = ModelContext(container)
        for number in 0..<12 { setup.insert(PartialTruck(name: "Truck \(number)", axles: number)) }
        setup.insert(PartialVehicle(name: "Car"))
        try setup.save()
        let context = ModelContext(container)
        let vehicles = try context.fetch(FetchDescriptor<PartialVehicle>(sortBy: [SortDescriptor(\.name)]))
        let trucks = vehicles.compactMap { $0 as? PartialTruck }
        try #require(trucks.count == 12)
        let sqlite = container.store as? SQLiteStore
        let before = sqlite?.executedStatementCount ?? 0
        #expect(Set(trucks.map(\.axles)) == Set(0..<12))
        if let sqlite { #expect(sqlite.executedStatementCount - before == 1) }
        #expect(trucks.allSatisfy { $0.name == "Truck \($0.axles)" })
    }

    @Test("A model whose row is gone reads as deleted; the others load", arguments: StoreKind.all)
    func goneRowReadsAsDeleted(_ kind: StoreKind) throws {
        let (container, context, books) = try partialBooks(kind)
        defer { withExtendedLifetime(context) {} }
        let other = ModelContext(container)
        try other.delete(model: RelBook.self, where: #Predicate { $0.title == "Book 12" })
        try other.save()
        let titles = books.map(\.title)
        #expect(titles.filter { $0.hasPrefix("Book ") }.count == Self.bookCount - 1)
        #expect(books.filter(\.isDeleted).count == 1)
    }

    @Test("A partial model inserted into another container's context keeps the values of its own row")
    func partialModelInsertedElsewhereKeepsItsValues() throws {
        // Two stores whose first rows share a primary key: the left-out `body` must come from the model's own.
        let source = try freshContainer(.sqlite, PartialNote.self)
        let sourceSetup = ModelContext(source)
        sourceSetup.insert(PartialNote(title: "Source", body: "from the source store"))
        try sourceSetup.save()
        let target = try freshContainer(.sqlite, PartialNote.self)
        let targetSetup = ModelContext(target)
        targetSetup.insert(PartialNote(title: "Target", body: "from the target store"))
        try targetSetup.save()

        let sourceContext = ModelContext(source)
        var descriptor = FetchDescriptor<PartialNote>()
        descriptor.propertiesToFetch = [\.title]
        let note = try #require(try sourceContext.fetch(descriptor).first)
        let targetContext = ModelContext(target)
        targetContext.insert(note)
        try targetContext.save()

        let copies = try ModelContext(target).fetch(
            FetchDescriptor<PartialNote>(predicate: #Predicate { $0.title == "Source" }))
        #expect(copies.map(\.body) == ["from the source store"])
        let all = try ModelContext(target).fetch(FetchDescriptor<PartialNote>(sortBy: [SortDescriptor(\.title)]))
        #expect(all.map(\.body) == ["from the source store", "from the target store"])
        withExtendedLifetime(sourceContext) {}
    }
}
