import Foundation
import SwiftData
import Testing

@Model final class LetJournal {
    @Attribute(.unique) let id: String
    let uuid: UUID
    let creationDate: Date
    var title: String
    @Relationship(deleteRule: .cascade, inverse: \LetEntry.journal) var entries: [LetEntry] = []
    init(id: String, title: String, creationDate: Date) {
        self.id = id
        self.uuid = UUID()
        self.creationDate = creationDate
        self.title = title
    }
}

@Model final class LetEntry {
    let number: Int
    var journal: LetJournal?
    init(number: Int) { self.number = number }
}

/// `let` stored properties are persisted, as SwiftData's `@Model` persists them.
@Suite struct LetPropertyTests {
    private func makeContainer(_ kind: StoreKind) throws -> ModelContainer {
        try freshContainer(kind, LetJournal.self, LetEntry.self)
    }

    @Test(arguments: StoreKind.all) func letPropertiesAreSavedAndReadBack(_ kind: StoreKind) throws {
        let container = try makeContainer(kind)
        let context = ModelContext(container)
        let day = Date(timeIntervalSince1970: 1_700_000_000)
        let journal = LetJournal(id: "j1", title: "Travels", creationDate: day)
        context.insert(journal)
        try context.save()

        let reader = ModelContext(container)
        let fetched = try #require(try reader.fetch(FetchDescriptor<LetJournal>()).first)
        #expect(fetched.id == "j1")
        #expect(fetched.uuid == journal.uuid)
        #expect(fetched.creationDate == day)
        let later = day.addingTimeInterval(60)
        let found = try reader.fetch(
            FetchDescriptor<LetJournal>(
                predicate: #Predicate { $0.id == "j1" && $0.creationDate < later },
                sortBy: [SortDescriptor(\.creationDate)]))
        #expect(found.map(\.title) == ["Travels"])
        var partial = FetchDescriptor<LetJournal>()
        partial.propertiesToFetch = [\.title]
        #expect(try ModelContext(container).fetch(partial).first?.uuid == journal.uuid)
    }

    @Test(arguments: StoreKind.all) func modelsReachedThroughRelationshipsGetTheirLetValues(_ kind: StoreKind) throws {
        let container = try makeContainer(kind)
        let context = ModelContext(container)
        let journal = LetJournal(id: "j2", title: "Notes", creationDate: .now)
        journal.entries = [LetEntry(number: 1), LetEntry(number: 2)]
        context.insert(journal)
        try context.save()

        let reader = ModelContext(container)
        let entries = try reader.fetch(FetchDescriptor<LetEntry>(sortBy: [SortDescriptor(\.number)]))
        #expect(entries.map(\.number) == [1, 2])
        #expect(entries.first?.journal?.id == "j2")
        #expect(entries.first?.journal?.uuid == journal.uuid)
        let journals = try ModelContext(container).fetch(FetchDescriptor<LetJournal>())
        #expect(journals.first?.entries.map(\.number).sorted() == [1, 2])
    }

    @Test(arguments: StoreKind.all) func aUniqueLetKeepsItsConstraint(_ kind: StoreKind) throws {
        let context = ModelContext(try makeContainer(kind))
        context.insert(LetJournal(id: "same", title: "First", creationDate: .now))
        try context.save()
        context.insert(LetJournal(id: "same", title: "Second", creationDate: .now))
        try context.save()
        // SwiftData's default for a unique attribute: the second insert updates the stored row.
        let journals = try context.fetch(FetchDescriptor<LetJournal>())
        #expect(journals.count == 1)
        #expect(journals.first?.title == "Second")
    }
}
