import Foundation
import SwiftData
import Testing

@Model final class IndexedAuthor {
    var name: String
    var books: [IndexedBook] = []
    init(name: String) { self.name = name }
}

@Model final class IndexedBook {
    #Index<IndexedBook>([\.author], [\.title])
    var title: String
    var author: IndexedAuthor?
    init(title: String, author: IndexedAuthor? = nil) {
        self.title = title
        self.author = author
    }
}

@Model final class UniqueTrip {
    var name: String
    var visits: [UniqueVisit] = []
    init(name: String) { self.name = name }
}

@Model final class UniqueVisit {
    #Unique<UniqueVisit>([\.trip, \.date])
    var date: Date
    var note: String
    var trip: UniqueTrip?
    init(date: Date, note: String, trip: UniqueTrip? = nil) {
        self.date = date
        self.note = note
        self.trip = trip
    }
}

/// `#Index` and `#Unique` over to-one relationship key paths, as SwiftData models declare them.
@Suite struct RelationshipIndexTests {
    @Test(arguments: StoreKind.all) func indexOverAToOneRelationshipOpensAndFetches(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, IndexedBook.self)
        let context = ModelContext(container)
        let herbert = IndexedAuthor(name: "Herbert")
        context.insert(IndexedBook(title: "Dune", author: herbert))
        context.insert(IndexedBook(title: "Emma"))
        try context.save()
        let byHerbert = try context.fetch(
            FetchDescriptor<IndexedBook>(predicate: #Predicate { $0.author?.name == "Herbert" }))
        #expect(byHerbert.map(\.title) == ["Dune"])
    }

    @Test(arguments: StoreKind.all) func uniqueOverAToOneRelationshipUpsertsTheVisitOfTheSameTripAndDay(
        _ kind: StoreKind
    ) throws {
        let container = try freshContainer(kind, UniqueVisit.self)
        let context = ModelContext(container)
        let day = Date(timeIntervalSince1970: 86_400 * 100)
        let lisbon = UniqueTrip(name: "Lisbon")
        let porto = UniqueTrip(name: "Porto")
        context.insert(UniqueVisit(date: day, note: "first", trip: lisbon))
        context.insert(UniqueVisit(date: day, note: "other trip", trip: porto))
        try context.save()

        context.insert(UniqueVisit(date: day, note: "second", trip: lisbon))
        try context.save()

        let reader = ModelContext(container)
        let visits = try reader.fetch(FetchDescriptor<UniqueVisit>(sortBy: [SortDescriptor(\.note)]))
        #expect(visits.map(\.note) == ["other trip", "second"])
        #expect(visits.map { $0.trip?.name } == ["Porto", "Lisbon"])
    }
}
