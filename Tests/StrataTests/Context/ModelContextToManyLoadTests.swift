import Foundation
import StrataTestSupport
import Testing

@testable import Strata
@testable import StrataTestFixtures

@Suite("A to-many relationship read across a fetched list")
struct ModelContextToManyLoadTests {
    /// A container of the relationship fixtures' models, with no rows.
    private func emptyShelf(_ kind: StoreKind) throws -> ModelContainer {
        try freshContainer(kind, RelAuthor.self, RelBook.self, RelChapter.self, RelTag.self)
    }

    /// A container with `authors` authors, "author N" with books "N-first" and "N-second" (the author numbered 0
    /// has none); all the first books are inserted before the second ones, so each author's books have keys far apart.
    private func makeShelf(_ kind: StoreKind, authors count: Int) throws -> ModelContainer {
        let container = try emptyShelf(kind)
        let context = ModelContext(container)
        let authors = (0..<count).map { RelAuthor(name: "author \($0)") }
        for author in authors { context.insert(author) }
        for edition in ["first", "second"] {
            for (number, author) in authors.enumerated() where number > 0 {
                context.insert(RelBook(title: "\(number)-\(edition)", author: author))
            }
            try context.save()
        }
        return container
    }

    @Test(
        "Reading author.books across 1,200 fetched authors gives each its books in key order, one statement per 500 authors",
        arguments: StoreKind.all)
    func toManyAcrossAList(_ kind: StoreKind) throws {
        let container = try makeShelf(kind, authors: 1_200)
        let context = ModelContext(container)
        let authors = try context.fetch(FetchDescriptor<RelAuthor>())
        #expect(authors.count == 1_200)
        let store = container.store as? SQLiteStore
        let before = store?.executedStatementCount
        for author in authors {
            let number = try #require(Int(author.name.dropFirst("author ".count)))
            let expected = number == 0 ? [] : ["\(number)-first", "\(number)-second"]
            #expect(author.books.map(\.title) == expected)
        }
        if let store, let before { #expect(store.executedStatementCount - before == 3) }
        // The books' inverse reads back the author they were loaded for.
        #expect(authors.allSatisfy { author in author.books.allSatisfy { $0.author === author } })
    }

    @Test(
        "A book moved to another author before either author's books are read is listed under its new author only",
        arguments: StoreKind.all)
    func movedBeforeTheToManyIsRead(_ kind: StoreKind) throws {
        let container = try emptyShelf(kind)
        let setup = ModelContext(container)
        let (first, second) = (RelAuthor(name: "first"), RelAuthor(name: "second"))
        setup.insert(first)
        setup.insert(second)
        for (title, author) in [("a", first), ("b", second), ("c", first), ("d", second)] {
            setup.insert(RelBook(title: title, author: author))
        }
        try setup.save()
        let context = ModelContext(container)
        let authors = try context.fetch(FetchDescriptor<RelAuthor>(sortBy: [SortDescriptor(\.name)]))
        let books = try context.fetch(FetchDescriptor<RelBook>(sortBy: [SortDescriptor(\.title)]))
        // Book "a" is read among the first author's rows but belongs to the second one now.
        books[0].author = authors[1]
        #expect(authors[0].books.map(\.title) == ["c"])
        #expect(authors[1].books.map(\.title).sorted() == ["a", "b", "d"])
        #expect(authors[1].books.filter { $0 === books[0] }.count == 1)
    }

    @Test(
        "Reading book.tags across 1,200 fetched books gives each its tags in key order, one statement per 500 books",
        arguments: StoreKind.all)
    func manyToManyAcrossAList(_ kind: StoreKind) throws {
        let container = try emptyShelf(kind)
        let setup = ModelContext(container)
        let tags = (0..<10).map { RelTag(name: "tag \($0)") }
        for tag in tags { setup.insert(tag) }
        for number in 0..<1_200 {
            let book = RelBook(title: "book \(number)")
            setup.insert(book)
            book.tags = [tags[(number + 3) % 10], tags[number % 10]]
        }
        try setup.save()
        let context = ModelContext(container)
        let books = try context.fetch(FetchDescriptor<RelBook>())
        let store = container.store as? SQLiteStore
        let before = store?.executedStatementCount
        for book in books {
            let number = try #require(Int(book.title.dropFirst("book ".count)))
            #expect(book.tags.map(\.name) == [number % 10, (number + 3) % 10].sorted().map { "tag \($0)" })
        }
        // Three statements of join rows (1,200 books), and one of the ten tags' rows.
        if let store, let before { #expect(store.executedStatementCount - before == 4) }
    }

    @Test("The join rows of a list of books are read in the order of the join table's primary key, without a sort")
    func joinRowsReadWithoutASort() throws {
        let store = TestStore(.sqlite)
        try store.seed(RelAuthor.self, RelBook.self, RelChapter.self, RelTag.self) {
            let book = RelBook(title: "tagged")
            $0.insert(book)
            book.tags = [RelTag(name: "tag")]
        }
        let schema = Schema([RelAuthor.self, RelBook.self, RelChapter.self, RelTag.self])
        let book = try #require(schema.entity(named: "RelBook"))
        let tags = try #require(book.relationshipInfos.values.first { $0.name == "tags" })
        guard case .joinTable(let table, let ownerColumn, let targetColumn) = tags.storage else {
            Issue.record("RelBook.tags isn't kept in a join table")
            return
        }
        let connection = try SQLiteConnection(location: .file(store.fileURL.path), readOnly: true)
        // A list in key order is one range of owners; any other list, an `IN` list.
        for owners: [Int64] in [[1, 2, 3], [3, 1, 7]] {
            let query = SQLiteStore.joinRowsQuery(
                table: table, ownerColumn: ownerColumn, targetColumn: targetColumn, owners: owners)
            let (sql, bindings) = query.render(in: SQLiteDialect())
            let plan = try connection.query("EXPLAIN QUERY PLAN " + sql, bindings).compactMap { row -> String? in
                if case .text(let detail)? = row.last { detail } else { nil }
            }
            #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
        }
    }

    @Test("The books of a list of authors are read in the order of the index on their foreign key, without a sort")
    func toManyReadWithoutASort() throws {
        let store = TestStore(.sqlite)
        try store.seed(RelAuthor.self, RelBook.self, RelChapter.self, RelTag.self) {
            $0.insert(RelBook(title: "1-first", author: RelAuthor(name: "author 1")))
        }
        let schema = Schema([RelAuthor.self, RelBook.self, RelChapter.self, RelTag.self])
        let author = try #require(schema.entity(named: "RelAuthor"))
        let books = try #require(author.relationshipInfos.values.first { $0.name == "books" })
        let inverse = try #require(books.inverse)
        let request = ModelContext.targetsFetch(of: books, inverse: inverse, owners: [3, 1, 2])
        let (sql, bindings) = try SelectStatement.sqlite.rows(request).render(in: SQLiteDialect())
        let connection = try SQLiteConnection(location: .file(store.fileURL.path), readOnly: true)
        let plan = try connection.query("EXPLAIN QUERY PLAN " + sql, bindings).compactMap { row -> String? in
            if case .text(let detail)? = row.last { detail } else { nil }
        }
        #expect(plan.contains { $0.contains("INDEX") }, "\(plan)")
        #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
    }
}
