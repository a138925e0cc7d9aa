import Foundation
import StrataTestSupport
import Testing

@testable import Strata
@testable import StrataTestFixtures

/// Changing one model of a large loaded to-many is a one-change save: the relationship's other models are neither
/// written nor read again.
@Suite("A change inside a large to-many relationship")
struct ModelContextLargeToManySaveTests {
    @Test("One book of an author's 1,000 loaded books saves the statements a lone change saves")
    func oneChangeInALargeToMany() throws {
        let container = try freshContainer(.sqlite, RelAuthor.self, RelBook.self, RelChapter.self, RelTag.self)
        let sqlite = try #require(container.store as? SQLiteStore)
        let setup = ModelContext(container)
        let author = RelAuthor(name: "Prolific")
        setup.insert(author)
        setup.insert(RelAuthor(name: "Alone"))
        for number in 0..<1_000 { setup.insert(RelBook(title: "Book \(number)", author: author)) }
        try setup.save()

        let context = ModelContext(container)
        let prolific = try #require(
            try context.fetch(FetchDescriptor<RelAuthor>(predicate: #Predicate { $0.name == "Prolific" })).first)
        let alone = try #require(
            try context.fetch(FetchDescriptor<RelAuthor>(predicate: #Predicate { $0.name == "Alone" })).first)
        let books = prolific.books
        #expect(books.count == 1_000)
        // Each change's statements compiled once before counting.
        books[0].title = "warm-up"
        alone.name = "Still alone"
        try context.save()

        var before = sqlite.executedStatementCount
        alone.name = "Alone again"
        try context.save()
        let lone = sqlite.executedStatementCount - before
        before = sqlite.executedStatementCount
        books[500].title = "Changed"
        try context.save()
        #expect(sqlite.executedStatementCount - before == lone)

        let check = ModelContext(container)
        let stored = try check.fetch(FetchDescriptor<RelBook>(predicate: #Predicate { $0.title == "Changed" }))
        #expect(stored.count == 1)
        #expect(stored.first?.author?.name == "Prolific")
        #expect(try check.fetchCount(FetchDescriptor<RelBook>()) == 1_000)
    }
}
