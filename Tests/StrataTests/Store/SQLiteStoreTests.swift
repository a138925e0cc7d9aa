import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

@Suite("SQLite store: unique constraints and indexes")
struct SQLiteStoreTests {
    @Test("Inserting a duplicate unique value updates the stored row under the default merge policy")
    func duplicateUniqueValueUpserts() throws {
        let store = TemporaryStore()
        let context = ModelContext(try store.container(CatalogBook.self))
        #expect(context.mergePolicy == .mergeByPropertyObjectTrump)
        let original = CatalogBook(isbn: "978-0441013593", title: "Dune")
        context.insert(original)
        try context.save()
        let originalID = original.persistentModelID

        let duplicate = CatalogBook(isbn: "978-0441013593", title: "Dune (40th anniversary)")
        context.insert(duplicate)
        try context.save()

        #expect(duplicate.persistentModelID == originalID)
        #expect(original.title == "Dune (40th anniversary)")
        let reopened = ModelContext(try store.container(CatalogBook.self))
        let rows = try reopened.fetch(FetchDescriptor<CatalogBook>())
        #expect(rows.map(\.title) == ["Dune (40th anniversary)"])
        #expect(rows.map(\.isbn) == ["978-0441013593"])
    }

    @Test("Under the .error merge policy a duplicate unique value throws and nothing is written")
    func duplicateUniqueValueThrowsUnderErrorPolicy() throws {
        let context = ModelContext(try inMemoryContainer(CatalogBook.self))
        context.mergePolicy = .error
        context.insert(CatalogBook(isbn: "978-0441013593", title: "Dune"))
        try context.save()
        context.insert(CatalogBook(isbn: "978-0441013593", title: "Dune again"))
        context.insert(CatalogBook(isbn: "978-0141439587", title: "Emma"))
        #expect {
            try context.save()
        } throws: {
            ($0 as? SwiftDataError)?.underlyingError
                == StrataError.uniqueConstraintViolation(entity: "CatalogBook", properties: ["isbn"])
        }
        #expect(context.hasChanges)
        var saved = FetchDescriptor<CatalogBook>()
        saved.includePendingChanges = false
        #expect(try context.fetchCount(saved) == 1)
    }

    @Test("Updating a model to another row's unique value throws under either policy")
    func updateCollisionThrows() throws {
        let context = ModelContext(try inMemoryContainer(CatalogBook.self))
        let dune = CatalogBook(isbn: "1", title: "Dune")
        context.insert(dune)
        context.insert(CatalogBook(isbn: "2", title: "Emma"))
        try context.save()
        dune.isbn = "2"
        dune.title = "Dune Messiah"
        #expect {
            try context.save()
        } throws: {
            ($0 as? SwiftDataError)?.underlyingError
                == StrataError.uniqueConstraintViolation(entity: "CatalogBook", properties: ["isbn"])
        }
        // The failed save kept the changes, saved values included: a retry writes them, and rollback still
        // knows what the store holds.
        #expect(dune.hasChanges && context.hasChanges)
        dune.isbn = "3"
        try context.save()
        #expect(!dune.hasChanges)
        #expect(
            try ModelContext(context.container).fetch(FetchDescriptor<CatalogBook>(sortBy: [SortDescriptor(\.isbn)]))
                .map { "\($0.isbn) \($0.title)" } == ["2 Emma", "3 Dune Messiah"])

        dune.isbn = "2"
        #expect {
            try context.save()
        } throws: {
            ($0 as? SwiftDataError)?.underlyingError
                == StrataError.uniqueConstraintViolation(entity: "CatalogBook", properties: ["isbn"])
        }
        context.rollback()
        #expect(dune.isbn == "3" && !dune.hasChanges)
    }

    @Test("#Unique over two properties: the pair must be unique, each alone need not be")
    func compositeUnique() throws {
        let store = TemporaryStore()
        let context = ModelContext(try store.container(Edition.self))
        context.insert(Edition(title: "Dune", year: 1965, printing: 1))
        context.insert(Edition(title: "Dune", year: 1990, printing: 1))
        context.insert(Edition(title: "Emma", year: 1965, printing: 1))
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<Edition>()) == 3)

        context.insert(Edition(title: "Dune", year: 1965, printing: 7))
        try context.save()
        let dunes = try context.fetch(
            FetchDescriptor<Edition>(
                predicate: #Predicate { $0.title == "Dune" }, sortBy: [SortDescriptor(\.year)]))
        #expect(dunes.map(\.year) == [1965, 1990])
        #expect(dunes.map(\.printing) == [7, 1])

        context.mergePolicy = .error
        context.insert(Edition(title: "Emma", year: 1965, printing: 2))
        #expect {
            try context.save()
        } throws: {
            ($0 as? SwiftDataError)?.underlyingError
                == StrataError.uniqueConstraintViolation(entity: "Edition", properties: ["title", "year"])
        }
    }

    @Test("#Index creates an index that SQLite uses for title == ? under Swift's string order")
    func indexIsUsed() throws {
        let store = TemporaryStore()
        let context = ModelContext(try store.container(ShelvedBook.self))
        context.insert(ShelvedBook(title: "Dune"))
        try context.save()

        let connection = try SQLiteConnection(location: .file(store.url.path), readOnly: true)
        let indexes = try connection.query(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'ShelvedBook'", [])
        let indexName = try #require(indexes.first?.first)
        #expect(indexes.count == 1)
        let plan = try connection.query(
            #"EXPLAIN QUERY PLAN SELECT * FROM "ShelvedBook" WHERE "title" = ? COLLATE STRATA_SWIFT"#, [.text("Dune")])
        let details = plan.compactMap { row in row.last.flatMap { if case .text(let text) = $0 { text } else { nil } } }
        guard case .text(let name) = indexName else {
            Issue.record("index name is not text: \(indexName)")
            return
        }
        #expect(
            details.contains { $0.contains("USING INDEX \(name)") || $0.contains("USING COVERING INDEX \(name)") },
            "plan: \(details)")
    }

    @Test("A #Predicate and a sort on an #Index'ed String use the index")
    func translatedPredicateUsesIndex() throws {
        let store = TemporaryStore()
        let context = ModelContext(try store.container(ShelvedBook.self))
        context.insert(ShelvedBook(title: "Dune"))
        try context.save()
        let entity = try #require(context.container.schema.entity(for: ShelvedBook.self))
        let descriptor = FetchDescriptor<ShelvedBook>(
            predicate: #Predicate { $0.title == "Dune" }, sortBy: [SortDescriptor(\.title)])
        let (sql, bindings) = try SelectStatement.sqlite.rows(try FetchPlan(descriptor, entity: entity).request)
            .render(in: SQLiteDialect())
        let connection = try SQLiteConnection(location: .file(store.url.path), readOnly: true)
        let plan = try connection.query("EXPLAIN QUERY PLAN " + sql, bindings)
        let details = plan.compactMap { row in row.last.flatMap { if case .text(let text) = $0 { text } else { nil } } }
        #expect(
            details.contains { $0.contains("USING INDEX") || $0.contains("USING COVERING INDEX") }, "plan: \(details)")
        #expect(try context.fetch(descriptor).map(\.title) == ["Dune"])
    }

    @Test("A model without #Index gets no index")
    func noIndexWithoutMacro() throws {
        let store = TemporaryStore()
        _ = try store.container(Book.self)
        let connection = try SQLiteConnection(location: .file(store.url.path), readOnly: true)
        let indexes = try connection.query(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'Book'", [])
        #expect(indexes.isEmpty)
    }
}
