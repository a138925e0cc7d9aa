import Foundation
import Testing
@testable import Strata

/// Hostile text in every place a user can pass it: values, store paths, `originalName`, very long and deeply
/// nested predicates. None changes the shape of the SQL Strata runs, and none changes the store beyond what was
/// asked.
@Suite("Injection")
struct InjectionTests {
    static let hostile = [
        "'; DROP TABLE \"Book\"; --", "\"); DELETE FROM \"Book\"; --", "x' OR '1'='1", "a;b;c", "-- comment",
        "nul\0inside", "\0", "\0\0trailing\0", "/* open comment", "é\u{301}🙂", String(repeating: "'\"", count: 50_000),
    ]

    /// Every table, index and trigger the store's database holds, with its SQL.
    private func schemaObjects(_ store: TemporaryStore) throws -> [[StoredValue]] {
        let connection = try SQLiteConnection(location: .file(store.url.path), readOnly: true)
        return try connection.query("SELECT type, name, sql FROM sqlite_master ORDER BY type, name", [])
    }

    @Test("Hostile strings saved as values read back byte for byte (NUL included); the schema is unchanged")
    func valuesRoundTrip() throws {
        let store = TemporaryStore()
        let context = ModelContext(try store.container(Book.self))
        context.insert(Book(title: "plain", author: "", publisher: ""))
        try context.save()
        let before = try schemaObjects(store)
        for (number, text) in Self.hostile.enumerated() {
            context.insert(Book(title: "hostile \(number)", author: text, publisher: text + text, summary: String(text.reversed())))
        }
        try context.save()
        let fresh = ModelContext(try store.container(Book.self))
        let books = try fresh.fetch(FetchDescriptor<Book>(sortBy: [SortDescriptor(\.title)]))
        #expect(books.count == Self.hostile.count + 1)
        for (number, text) in Self.hostile.enumerated() {
            let book = try #require(books.first { $0.title == "hostile \(number)" })
            #expect(Array(book.author.utf8) == Array(text.utf8), "value \(number) changed")
            #expect(book.publisher == text + text)
            #expect(book.summary == String(text.reversed()))
            // Found again by the value itself, through a #Predicate and a format predicate.
            #expect(try fresh.fetchCount(FetchDescriptor<Book>(predicate: #Predicate { $0.author == text })) == 1)
            #expect(try fresh.fetchCount(FetchDescriptor<Book>(predicate: FormatPredicate(format: "author == %@", text))) == 1)
        }
        #expect(try schemaObjects(store) == before)
    }

    @Test("A #Predicate's SQL has one shape whatever value it compares with")
    func predicateShapeIgnoresValues() throws {
        let entity = try #require(Schema([Book.self]).entity(for: Book.self))
        func sql(_ text: String) throws -> String {
            let descriptor = FetchDescriptor<Book>(predicate: #Predicate { $0.author == text || $0.title.contains(text) })
            return SelectStatement.rows(try FetchPlan(descriptor, entity: entity).request, dialect: SQLiteDialect()).render(in: SQLiteDialect()).sql
        }
        let shape = try sql("benign")
        for text in Self.hostile { #expect(try sql(text) == shape) }
    }

    @Test("Store paths with quotes, semicolons, comment markers and spaces open, save and reopen as that exact file")
    func hostileStorePaths() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-injection-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in ["a'b.store", "x\"; DROP TABLE Book; --.store", "semi;colon -- .store", "ünï cødé 🙂.store", "?mode=memory.store"] {
            let url = directory.appendingPathComponent(name)
            let context = ModelContext(try ModelContainer(for: Book.self, configurations: ModelConfiguration(url: url)))
            context.insert(Book(title: name, author: "", publisher: ""))
            try context.save()
            #expect(FileManager.default.fileExists(atPath: url.path), "\(name) was not created")
            let reopened = ModelContext(try ModelContainer(for: Book.self, configurations: ModelConfiguration(url: url)))
            #expect(try reopened.fetch(FetchDescriptor<Book>()).map(\.title) == [name])
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }
        #expect(files.count == 5, "\(files)")
    }

    @Test("A hostile originalName is a name to look up, not SQL: the migration is refused and the file unchanged")
    func hostileOriginalName() throws {
        let store = TemporaryStore()
        do {
            let context = ModelContext(try store.container(HostileRenameBefore.Trip.self))
            context.insert(HostileRenameBefore.Trip(name: "Oslo"))
            try context.save()
        }
        let before = store.bytes()
        let objects = try schemaObjects(store)
        #expect(throws: StrataError.self) { _ = try store.container(HostileRenameAfter.Trip.self) }
        #expect(store.bytes() == before)
        #expect(try schemaObjects(store) == objects)
    }

    @Test("Predicates of 100,000 terms (built, or nested 100,000 deep) and a flat 5,000-term string are refused by Strata's limits")
    func hugePredicatesAreRefused() throws {
        let context = ModelContext(try inMemoryContainer(Book.self))
        // A flat string of 100,000 terms parses in about 5 s in a debug build before the member limit refuses it:
        // `STRATA_RELIABILITY_FULL=1` runs it.
        let flatTerms = ProcessInfo.processInfo.environment["STRATA_RELIABILITY_FULL"] == nil ? 5_000 : 100_000
        let flat = Array(repeating: "title==1", count: flatTerms).joined(separator: "||")
        let nested = String(repeating: "(", count: 100_000) + "title==1" + String(repeating: ")", count: 100_000)
        let built = FormatPredicate(orPredicateWithSubpredicates: Array(repeating: FormatPredicate(format: "title == %@", "t"), count: 100_000))
        for predicate in [FormatPredicate(format: flat), FormatPredicate(format: nested), built] {
            let error = try #require(throws: (any Error).self) { _ = try context.fetch(FetchDescriptor<Book>(predicate: predicate)) }
            let text = "\(error)"
            #expect(text.count < 4_000, "an error of \(text.count) characters")
            #expect(text.contains("limit") || text.contains("nested"), "\(text.prefix(300))")
        }
    }
}

enum HostileRenameBefore {
    @Model final class Trip {
        var name: String
        init(name: String) { self.name = name }
    }
}

enum HostileRenameAfter {
    @Model final class Trip {
        @Attribute(originalName: "name\"; DROP TABLE \"Trip\"; --") var title: String
        init(title: String) { self.title = title }
    }
}
