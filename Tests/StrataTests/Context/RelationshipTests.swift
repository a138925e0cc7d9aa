import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

@Model final class RelAuthor {
    var name: String
    @Relationship(deleteRule: .cascade, inverse: \RelBook.author) var books: [RelBook] = []
    init(name: String) { self.name = name }
}

@Model final class RelBook {
    var title: String
    var author: RelAuthor?
    @Relationship(deleteRule: .cascade) var chapters: [RelChapter] = []
    var tags: [RelTag] = []
    init(title: String, author: RelAuthor? = nil) {
        self.title = title
        self.author = author
    }
}

@Model final class RelChapter {
    var number: Int
    var book: RelBook?
    init(number: Int) { self.number = number }
}

@Model final class RelTag {
    var name: String
    var books: [RelBook] = []
    init(name: String) { self.name = name }
}

@Model final class RelVault {
    var label: String
    @Relationship(deleteRule: .deny, inverse: \RelCoin.vault) var coins: [RelCoin] = []
    init(label: String) { self.label = label }
}

@Model final class RelCoin {
    var value: Int
    var vault: RelVault?
    init(value: Int) { self.value = value }
}

@Model final class RelTeam {
    var name: String
    @Relationship(minimumModelCount: 1, maximumModelCount: 2) var members: [RelMember] = []
    init(name: String) { self.name = name }
}

@Model final class RelMember {
    var name: String
    var team: RelTeam?
    init(name: String) { self.name = name }
}

@Suite("Relationships")
struct RelationshipTests {
    private func makeContainer(_ kind: StoreKind, _ url: URL? = nil) throws -> ModelContainer {
        guard let url else {
            return try freshContainer(
                kind, RelAuthor.self, RelBook.self, RelChapter.self, RelTag.self, RelVault.self, RelCoin.self)
        }
        return try ModelContainer(
            for: RelAuthor.self, RelBook.self, RelChapter.self, RelTag.self, RelVault.self, RelCoin.self,
            configurations: ModelConfiguration(url: url))
    }

    @Test(arguments: StoreKind.all) func assigningEitherSideKeepsTheOtherInStepBeforeSaving(_ kind: StoreKind) throws {
        let context = ModelContext(try makeContainer(kind))
        let author = RelAuthor(name: "Le Guin")
        let book = RelBook(title: "Earthsea")
        context.insert(author)
        context.insert(book)
        book.author = author
        #expect(author.books.map(\.title) == ["Earthsea"])
        author.books = []
        #expect(book.author == nil)
        author.books.append(book)
        #expect(book.author === author)
        let other = RelAuthor(name: "Butler")
        book.author = other
        #expect(author.books.isEmpty)
        #expect(other.books.map(\.title) == ["Earthsea"])
        #expect(other.modelContext === context)
    }

    @Test(arguments: StoreKind.all) func insertingAModelInsertsItsGraphAndOneSaveStoresIt(_ kind: StoreKind) throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("rel-\(UUID().uuidString).store")
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) } }
        do {
            let context = ModelContext(try makeContainer(kind, url))
            let author = RelAuthor(name: "Le Guin")
            let book = RelBook(title: "The Dispossessed", author: author)
            book.chapters = [RelChapter(number: 1), RelChapter(number: 2)]
            let tag = RelTag(name: "sf")
            book.tags = [tag]
            context.insert(book)
            try context.save()
        }
        let context = ModelContext(try makeContainer(kind, url))
        let authors = try context.fetch(FetchDescriptor<RelAuthor>())
        #expect(authors.count == 1)
        let book = try #require(authors.first?.books.first)
        #expect(book.title == "The Dispossessed")
        #expect(book.author === authors.first)
        #expect(book.chapters.map(\.number).sorted() == [1, 2])
        #expect(book.tags.map(\.name) == ["sf"])
        #expect(book.tags.first?.books.first === book)
    }

    @Test(arguments: StoreKind.all) func cascadeDeletesTheGraphBelowAndNullifyClearsReferences(_ kind: StoreKind) throws
    {
        let context = ModelContext(try makeContainer(kind))
        let author = RelAuthor(name: "Herbert")
        let book = RelBook(title: "Dune", author: author)
        book.chapters = [RelChapter(number: 1)]
        let tag = RelTag(name: "desert")
        book.tags = [tag]
        context.insert(book)
        #expect(author.books.first === book)
        try context.save()
        context.delete(author)
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<RelBook>()) == 0)
        #expect(try context.fetchCount(FetchDescriptor<RelChapter>()) == 0)
        #expect(try context.fetchCount(FetchDescriptor<RelTag>()) == 1)
        #expect(tag.books.isEmpty)
    }

    @Test(arguments: StoreKind.all) func denyRefusesTheSaveNamingTheRelationship(_ kind: StoreKind) throws {
        let context = ModelContext(try makeContainer(kind))
        let vault = RelVault(label: "main")
        vault.coins = [RelCoin(value: 5)]
        context.insert(vault)
        try context.save()
        context.delete(vault)
        #expect {
            try context.save()
        } throws: {
            ($0 as? SwiftDataError)?.underlyingError
                == StrataError.deleteDenied(entity: "RelVault", relationship: "coins", count: 1)
        }
    }

    @Test(arguments: StoreKind.all) func manyToManyAddAndRemoveFromBothSides(_ kind: StoreKind) throws {
        let container = try makeContainer(kind)
        let context = ModelContext(container)
        let swift = RelTag(name: "swift")
        let linux = RelTag(name: "linux")
        let book = RelBook(title: "Strata")
        context.insert(book)
        book.tags = [swift]
        linux.books.append(book)
        #expect(Set(book.tags.map(\.name)) == ["swift", "linux"])
        try context.save()
        book.tags.removeAll { $0.name == "swift" }
        #expect(swift.books.isEmpty)
        try context.save()
        let fresh = ModelContext(container)
        let stored = try #require(try fresh.fetch(FetchDescriptor<RelBook>()).first)
        #expect(stored.tags.map(\.name) == ["linux"])
    }

    @Test(arguments: StoreKind.all) func deletingAModelTakesItOutOfItsInverseAtOnce(_ kind: StoreKind) throws {
        let context = ModelContext(try makeContainer(kind))
        let author = RelAuthor(name: "Tolkien")
        let hobbit = RelBook(title: "The Hobbit", author: author)
        let silmarillion = RelBook(title: "The Silmarillion", author: author)
        context.insert(hobbit)
        context.insert(silmarillion)
        try context.save()
        context.delete(hobbit)
        #expect(author.books.map(\.title) == ["The Silmarillion"])
        try context.save()
        let fresh = ModelContext(context.container)
        #expect(try fresh.fetch(FetchDescriptor<RelAuthor>()).first?.books.map(\.title) == ["The Silmarillion"])
    }

    @Test(arguments: StoreKind.all) func countLimitsAreCheckedOnSave(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, RelTeam.self, RelMember.self)
        let context = ModelContext(container)
        let team = RelTeam(name: "empty")
        context.insert(team)
        #expect {
            try context.save()
        } throws: {
            ($0 as? SwiftDataError)?.underlyingError
                == .relationshipCountViolation(
                    entity: "RelTeam", relationship: "members", count: 0, minimum: 1, maximum: 2)
        }
        team.members = [RelMember(name: "a"), RelMember(name: "b"), RelMember(name: "c")]
        #expect {
            try context.save()
        } throws: {
            ($0 as? SwiftDataError)?.underlyingError
                == .relationshipCountViolation(
                    entity: "RelTeam", relationship: "members", count: 3, minimum: 1, maximum: 2)
        }
        let dropped = team.members.removeLast()
        try context.save()
        // Taken out of the relationship, not deleted: the member stays, without a team.
        #expect(try context.fetchCount(FetchDescriptor<RelMember>()) == 3)
        #expect(dropped.team == nil)
        let fresh = ModelContext(container)
        #expect(try fresh.fetch(FetchDescriptor<RelTeam>()).first?.members.count == 2)
    }

    @Test func faultsAndPrefetchingAvoidOneQueryPerRow() throws {
        let container = try makeContainer(.sqlite)
        let context = ModelContext(container)
        for index in 0..<50 {
            context.insert(RelBook(title: "Book \(index)", author: RelAuthor(name: "Author \(index % 5)")))
        }
        try context.save()
        let store = try #require(container.store as? SQLiteStore)

        let lazy = ModelContext(container)
        let books = try lazy.fetch(FetchDescriptor<RelBook>())
        let before = store.executedStatementCount
        let names = books.compactMap { $0.author?.name }
        #expect(names.count == 50)
        #expect(store.executedStatementCount - before == 1)

        let prefetching = ModelContext(container)
        var descriptor = FetchDescriptor<RelBook>()
        descriptor.relationshipKeyPathsForPrefetching = [\RelBook.author]
        let prefetched = try prefetching.fetch(descriptor)
        let afterFetch = store.executedStatementCount
        #expect(prefetched.compactMap { $0.author?.name }.count == 50)
        #expect(store.executedStatementCount == afterFetch)
        let first = try #require(prefetched.first?.author)
        #expect(prefetched.filter { $0.author === first }.count == 1)
    }
}

@Suite("Observation of changes made behind a model's setters")
struct ModelObservationTests {
    /// Calls `onChange` once when anything `read` reads changes.
    private final class ChangeFlag: @unchecked Sendable {
        var fired = false
    }

    @Test(arguments: StoreKind.all) func observersSeeAnInverseRelationshipUpdate(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, RelAuthor.self, RelBook.self, RelChapter.self, RelTag.self)
        let context = ModelContext(container)
        let author = RelAuthor(name: "Jemisin")
        let book = RelBook(title: "The Fifth Season")
        context.insert(author)
        context.insert(book)
        let flag = ChangeFlag()
        withObservationTracking {
            _ = author.books
        } onChange: {
            flag.fired = true
        }
        book.author = author
        #expect(flag.fired)
    }

    @Test(arguments: StoreKind.all) func observersSeeARollback(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, RelAuthor.self, RelBook.self, RelChapter.self, RelTag.self)
        let context = ModelContext(container)
        let author = RelAuthor(name: "Jemisin")
        context.insert(author)
        try context.save()
        author.name = "N. K. Jemisin"
        let flag = ChangeFlag()
        withObservationTracking {
            _ = author.name
        } onChange: {
            flag.fired = true
        }
        context.rollback()
        #expect(flag.fired)
        #expect(author.name == "Jemisin")
    }
}
