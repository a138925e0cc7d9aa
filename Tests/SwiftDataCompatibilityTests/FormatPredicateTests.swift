import Foundation
import SwiftData
import Testing

@Model final class FormatCompatAuthor {
    var name: String
    @Relationship(deleteRule: .cascade, inverse: \FormatCompatBook.author) var books: [FormatCompatBook] = []

    init(name: String) { self.name = name }
}

@Model final class FormatCompatBook {
    var title: String
    var subtitle: String?
    var pages: Int
    var rating: Double
    var author: FormatCompatAuthor?
    @Relationship(inverse: \FormatCompatTag.books) var tags: [FormatCompatTag] = []

    init(title: String, subtitle: String? = nil, pages: Int, rating: Double) {
        self.title = title
        self.subtitle = subtitle
        self.pages = pages
        self.rating = rating
    }
}

@Model final class FormatCompatTag {
    var name: String
    var books: [FormatCompatBook] = []

    init(name: String) { self.name = name }
}

/// Core Data format strings, fetched through `FetchDescriptor` the way Core Data code ported to SwiftData
/// writes them.
@Suite struct FormatPredicateTests {
    private func makeContext(_ kind: StoreKind = .sqlite) throws -> ModelContext {
        let context = ModelContext(
            try freshContainer(kind, FormatCompatAuthor.self, FormatCompatBook.self, FormatCompatTag.self))
        let leGuin = FormatCompatAuthor(name: "Ursula K. Le Guin"), herbert = FormatCompatAuthor(name: "Frank Herbert")
        let austen = FormatCompatAuthor(name: "Jane Austen")
        let scifi = FormatCompatTag(name: "Science Fiction"), classic = FormatCompatTag(name: "Classic")
        let dispossessed = FormatCompatBook(
            title: "The Dispossessed", subtitle: "An Ambiguous Utopia", pages: 387, rating: 4.5)
        let earthsea = FormatCompatBook(title: "A Wizard of Earthsea", pages: 183, rating: 4.2)
        let dune = FormatCompatBook(title: "Dune", subtitle: nil, pages: 612, rating: 4.7)
        let emma = FormatCompatBook(title: "Emma", subtitle: "A Novel", pages: 474, rating: 3.9)
        for model in [leGuin, herbert, austen] { context.insert(model) }
        for book in [dispossessed, earthsea, dune, emma] { context.insert(book) }
        dispossessed.author = leGuin
        earthsea.author = leGuin
        dune.author = herbert
        emma.author = austen
        dispossessed.tags = [scifi]
        dune.tags = [scifi, classic]
        emma.tags = [classic]
        try context.save()
        return context
    }

    private func titles(_ predicate: FormatPredicate, in context: ModelContext) throws -> [String] {
        try context.fetch(FetchDescriptor<FormatCompatBook>(predicate: predicate)).map(\.title).sorted()
    }

    private func authors(_ predicate: FormatPredicate, in context: ModelContext) throws -> [String] {
        try context.fetch(FetchDescriptor<FormatCompatAuthor>(predicate: predicate)).map(\.name).sorted()
    }

    @Test(arguments: StoreKind.all) func toManyKeyPathWithAPlainOperatorMeansAny(_ kind: StoreKind) throws {
        let context = try makeContext(kind)
        #expect(
            try titles(FormatPredicate(format: "tags.name CONTAINS[c] %@", "fiction"), in: context) == [
                "Dune", "The Dispossessed",
            ])
        #expect(try titles(FormatPredicate(format: "tags.name == %@", "Classic"), in: context) == ["Dune", "Emma"])
        #expect(
            try titles(FormatPredicate(format: "tags.name IN %@", ["Classic", "Poetry"]), in: context) == [
                "Dune", "Emma",
            ])
    }

    @Test(arguments: StoreKind.all) func keyPathsThroughTwoToManyRelationships(_ kind: StoreKind) throws {
        let context = try makeContext(kind)
        #expect(
            try authors(FormatPredicate(format: "ANY books.tags.name == %@", "Classic"), in: context) == [
                "Frank Herbert", "Jane Austen",
            ])
        #expect(
            try authors(FormatPredicate(format: "NONE books.tags.name == %@", "Classic"), in: context) == [
                "Ursula K. Le Guin"
            ])
        #expect(
            try authors(FormatPredicate(format: "ALL books.tags.name == %@", "Classic"), in: context) == ["Jane Austen"]
        )
    }

    @Test(arguments: StoreKind.all) func quantifiersInsideSubqueries(_ kind: StoreKind) throws {
        let context = try makeContext(kind)
        let predicate = FormatPredicate(
            format: "SUBQUERY(books, $book, ANY $book.tags.name == %@).@count > 0", "Science Fiction")
        #expect(try authors(predicate, in: context) == ["Frank Herbert", "Ursula K. Le Guin"])
        let untagged = FormatPredicate(format: "SUBQUERY(books, $book, $book.tags.@count == 0).@count > 0")
        #expect(try authors(untagged, in: context) == ["Ursula K. Le Guin"])
    }

    @Test(arguments: StoreKind.all) func powerOperator(_ kind: StoreKind) throws {
        let context = try makeContext(kind)
        #expect(
            try titles(FormatPredicate(format: "rating ** 2 > %f", 20.0), in: context) == ["Dune", "The Dispossessed"])
        #expect(try titles(FormatPredicate(format: "pages ** 0.5 < 14"), in: context) == ["A Wizard of Earthsea"])
    }

    @Test(arguments: StoreKind.all) func collectionOperatorsNeedFittingAttributes(_ kind: StoreKind) throws {
        let context = try makeContext(kind)
        #expect(try authors(FormatPredicate(format: "books.@avg.rating > 4.4"), in: context) == ["Frank Herbert"])
        do {
            _ = try authors(FormatPredicate(format: "books.@avg.title > 1"), in: context)
            Issue.record("@avg of a String was fetched")
        } catch {
            #expect(
                "\(error)".contains("@avg.title needs numbers, but FormatCompatBook.title holds String values"),
                "\(error)")
        }
    }

    @Test(arguments: StoreKind.all) func notOverNilMatchesLikeNotEqual(_ kind: StoreKind) throws {
        let context = try makeContext(kind)
        // Dune and A Wizard of Earthsea have no subtitle: a nil subtitle doesn't contain "Novel", so NOT matches it.
        #expect(
            try titles(FormatPredicate(format: "NOT (subtitle CONTAINS 'Novel')"), in: context)
                == ["A Wizard of Earthsea", "Dune", "The Dispossessed"])
        #expect(
            try titles(FormatPredicate(format: "subtitle != 'A Novel'"), in: context)
                == ["A Wizard of Earthsea", "Dune", "The Dispossessed"])
        #expect(
            try titles(FormatPredicate(format: "NOT (subtitle BEGINSWITH 'A')"), in: context) == [
                "A Wizard of Earthsea", "Dune",
            ])
        // Pending (unsaved) changes are judged by the same rule.
        context.insert(FormatCompatBook(title: "Unsaved", pages: 10, rating: 1))
        #expect(
            try titles(FormatPredicate(format: "NOT (subtitle LIKE '*')"), in: context) == [
                "A Wizard of Earthsea", "Dune", "Unsaved",
            ])
    }

    @Test(arguments: StoreKind.all) func oversizedPredicatesAreRefusedWithTheLimit(_ kind: StoreKind) throws {
        let context = try makeContext(kind)
        let manyTitles = (0..<600).map { "title == 'Book \($0)'" }.joined(separator: " OR ")
        #expect(throws: PredicateFormatError.self) { try FormatPredicate(format: manyTitles).validated() }
        let deep = String(repeating: "NOT (", count: 60) + "title == 'Dune'" + String(repeating: ")", count: 60)
        do {
            _ = try titles(FormatPredicate(format: deep), in: context)
            Issue.record("a predicate nested 60 NOTs deep was fetched")
        } catch {
            #expect("\(error)".contains("Strata's limit is 80"), "\(error)")
        }
        // A long list is fine: IN binds each value.
        #expect(
            try titles(FormatPredicate(format: "title IN %@", (0..<5_000).map { "Book \($0)" } + ["Emma"]), in: context)
                == ["Emma"])
    }

    @Test(arguments: StoreKind.all) func invalidRegularExpressionsFailValidation(_ kind: StoreKind) throws {
        let predicate = FormatPredicate(format: "title MATCHES %@", "Dune (")
        #expect(throws: PredicateFormatError.self) { try predicate.validated() }
        #expect(try titles(FormatPredicate(format: "title MATCHES[c] %@", "d.n."), in: makeContext(kind)) == ["Dune"])
    }

    @Test func errorDescriptionsStayShort() throws {
        let huge = String(repeating: "x", count: 300_000)
        let predicate = FormatPredicate(format: "title MATCHES %@", "(" + huge)
        #expect(throws: PredicateFormatError.self) { try predicate.validated() }
        #expect((predicate.error?.description.count ?? .max) < 2_500)
    }

    @Test(arguments: StoreKind.all) func caseAndDiacriticModifiersFoldAnyText(_ kind: StoreKind) throws {
        let context = try makeContext(kind)
        context.insert(FormatCompatAuthor(name: "Émile Zola"))
        context.insert(FormatCompatBook(title: "L’Œuvre", subtitle: "Straße", pages: 490, rating: 4.0))
        try context.save()
        #expect(try authors(FormatPredicate(format: "name CONTAINS[cd] %@", "EMILE"), in: context) == ["Émile Zola"])
        #expect(try titles(FormatPredicate(format: "subtitle ==[c] %@", "STRASSE"), in: context) == ["L’Œuvre"])
        #expect(try titles(FormatPredicate(format: "title LIKE[cd] %@", "l?oeuvre"), in: context) == [])
        #expect(try titles(FormatPredicate(format: "title MATCHES %@", "L.Œ.*"), in: context) == ["L’Œuvre"])
        let sorted = FetchDescriptor<FormatCompatAuthor>(
            predicate: nil, sortDescriptors: [FormatSortDescriptor(key: "name", selector: "localizedStandardCompare:")])
        #expect(
            try context.fetch(sorted).map { $0.name } == [
                "Émile Zola", "Frank Herbert", "Jane Austen", "Ursula K. Le Guin",
            ])
    }
}
