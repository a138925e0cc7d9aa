import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

/// A tree node: a self-referential relationship whose tables and column names coincide on both sides.
@Model final class PredicateNode {
    var name: String
    var parent: PredicateNode?
    @Relationship(inverse: \PredicateNode.parent) var children: [PredicateNode] = []
    init(name: String, parent: PredicateNode? = nil) {
        self.name = name
        self.parent = parent
    }
}

/// Predicates across relationships against a small library with known answers, each checked against
/// `Predicate.evaluate` on the same models.
@Suite struct PredicateRelationshipTests {
    /// Le Guin wrote Earthsea (fantasy, classic; 3 chapters) and The Dispossessed (sf; 1 chapter), Butler wrote
    /// Kindred (sf, classic), Nobody wrote nothing, and Anonymous has no author, tags or chapters.
    private struct Library {
        let container: ModelContainer
        let context: ModelContext
        let butler: RelAuthor

        init(_ kind: StoreKind = .sqlite) throws {
            container = try freshContainer(
                kind, RelAuthor.self, RelBook.self, RelChapter.self, RelTag.self, PredicateNode.self)
            context = ModelContext(container)
            let tags = Dictionary(uniqueKeysWithValues: ["fantasy", "classic", "sf"].map { ($0, RelTag(name: $0)) })
            let leGuin = RelAuthor(name: "Le Guin")
            butler = RelAuthor(name: "Butler")
            let earthsea = RelBook(title: "Earthsea", author: leGuin)
            let dispossessed = RelBook(title: "The Dispossessed", author: leGuin)
            let kindred = RelBook(title: "Kindred", author: butler)
            for book in [earthsea, dispossessed, kindred, RelBook(title: "Anonymous")] { context.insert(book) }
            context.insert(RelAuthor(name: "Nobody"))
            earthsea.tags = [tags["fantasy"], tags["classic"]].compactMap { $0 }
            dispossessed.tags = [tags["sf"]].compactMap { $0 }
            kindred.tags = [tags["sf"], tags["classic"]].compactMap { $0 }
            earthsea.chapters = [1, 2, 3].map(RelChapter.init(number:))
            dispossessed.chapters = [RelChapter(number: 1)]
            let root = PredicateNode(name: "root")
            let branch = PredicateNode(name: "branch", parent: root)
            context.insert(root)
            context.insert(branch)
            context.insert(PredicateNode(name: "leaf", parent: branch))
            try context.save()
        }

        /// The titles the store matches, after checking that `evaluate` matches the same books.
        func titles(
            _ predicate: Predicate<RelBook>, sourceLocation: SourceLocation = #_sourceLocation
        ) throws -> [String] {
            try names(predicate, \.title, sourceLocation: sourceLocation)
        }

        func names<T: PersistentModel>(
            _ predicate: Predicate<T>, _ name: (T) -> String, sourceLocation: SourceLocation = #_sourceLocation
        ) throws -> [String] {
            let fresh = ModelContext(container)
            let store = try fresh.fetch(FetchDescriptor(predicate: predicate)).map(name).sorted()
            let evaluated = try fresh.fetch(FetchDescriptor<T>()).filter { try predicate.evaluate($0) }.map(name)
                .sorted()
            #expect(store == evaluated, "store vs evaluate", sourceLocation: sourceLocation)
            return store
        }
    }

    @Test(arguments: StoreKind.all)
    func toOneKeyPathsReadTheRelatedModel(_ kind: StoreKind) throws {
        let library = try Library(kind)
        #expect(try library.titles(#Predicate { $0.author?.name == "Le Guin" }) == ["Earthsea", "The Dispossessed"])
        #expect(try library.titles(#Predicate { $0.author?.name != "Le Guin" }) == ["Anonymous", "Kindred"])
        #expect(try library.titles(#Predicate { $0.author == nil }) == ["Anonymous"])
        #expect(try library.titles(#Predicate { $0.author != nil }) == ["Earthsea", "Kindred", "The Dispossessed"])
        #expect(
            try library.names(
                #Predicate<RelChapter> { $0.book?.author?.name == "Le Guin" && $0.number > 1 }, \.number.description)
                == ["2", "3"])
    }

    // `#Predicate` can't capture a model itself (captured values must be Codable and Sendable), so models are
    // compared by `persistentModelID`, as in SwiftData.
    @Test(arguments: StoreKind.all)
    func comparingIdentifiersComparesKeys(_ kind: StoreKind) throws {
        let library = try Library(kind)
        let butler = library.butler.persistentModelID
        #expect(try library.titles(#Predicate { $0.author?.persistentModelID == butler }) == ["Kindred"])
        #expect(
            try library.titles(#Predicate { $0.author?.persistentModelID != butler })
                == ["Anonymous", "Earthsea", "The Dispossessed"])
        #expect(try library.names(#Predicate<RelAuthor> { $0.persistentModelID == butler }, \.name) == ["Butler"])
        // An unsaved model is nobody's author in the store; nor is a model of another entity.
        let unsaved = RelAuthor(name: "Draft").persistentModelID
        #expect(try library.titles(#Predicate { $0.author?.persistentModelID == unsaved }).isEmpty)
        #expect(try library.titles(#Predicate { $0.author?.persistentModelID != unsaved }).count == 4)
        let chapter = try #require(try library.context.fetch(FetchDescriptor<RelChapter>()).first?.persistentModelID)
        #expect(try library.titles(#Predicate { $0.author?.persistentModelID == chapter }).isEmpty)
    }

    @Test(arguments: StoreKind.all)
    func toManyRelationshipsAreSearchedAndCounted(_ kind: StoreKind) throws {
        let library = try Library(kind)
        #expect(
            try library.titles(#Predicate { $0.tags.contains { $0.name == "sf" } }) == ["Kindred", "The Dispossessed"])
        #expect(
            try library.titles(#Predicate { $0.tags.allSatisfy { $0.name != "fantasy" } })
                == ["Anonymous", "Kindred", "The Dispossessed"])
        #expect(try library.titles(#Predicate { $0.tags.isEmpty }) == ["Anonymous"])
        #expect(try library.titles(#Predicate { !$0.chapters.isEmpty }) == ["Earthsea", "The Dispossessed"])
        #expect(try library.titles(#Predicate { $0.tags.count > 1 }) == ["Earthsea", "Kindred"])
        #expect(
            try library.titles(#Predicate { $0.tags.filter { $0.name == "classic" }.count == 1 }) == [
                "Earthsea", "Kindred",
            ])
        #expect(try library.titles(#Predicate { $0.chapters.contains { $0.number > 2 } }) == ["Earthsea"])
    }

    @Test(arguments: StoreKind.all)
    func nestedRelationshipsKeepTheirScopes(_ kind: StoreKind) throws {
        let library = try Library(kind)
        #expect(try library.titles(#Predicate { $0.author?.books.count == 2 }) == ["Earthsea", "The Dispossessed"])
        #expect(try library.titles(#Predicate { ($0.author?.books.count ?? 0) == 0 }) == ["Anonymous"])
        #expect(
            try library.names(
                #Predicate<RelAuthor> { $0.books.contains { $0.tags.contains { $0.name == "classic" } } }, \.name)
                == ["Butler", "Le Guin"])
        #expect(try library.names(#Predicate<RelAuthor> { $0.books.isEmpty }, \.name) == ["Nobody"])
        #expect(
            try library.names(
                #Predicate<RelAuthor> {
                    !$0.books.isEmpty && $0.books.allSatisfy { $0.tags.contains { $0.name == "sf" } }
                }, \.name)
                == ["Butler"])
    }

    @Test(arguments: StoreKind.all)
    func selfReferentialRelationshipsUseDistinctAliases(_ kind: StoreKind) throws {
        let library = try Library(kind)
        #expect(try library.names(#Predicate<PredicateNode> { $0.parent?.name == "root" }, \.name) == ["branch"])
        #expect(try library.names(#Predicate<PredicateNode> { $0.parent?.parent?.name == "root" }, \.name) == ["leaf"])
        #expect(
            try library.names(#Predicate<PredicateNode> { $0.children.contains { $0.name == "leaf" } }, \.name) == [
                "branch"
            ])
        #expect(
            try library.names(
                #Predicate<PredicateNode> { $0.children.contains { $0.children.isEmpty == false } }, \.name)
                == ["root"])
    }

    @Test func aRelationshipPredicateIsOneQuery() throws {
        let library = try Library()
        let store = try #require(library.container.store as? SQLiteStore)
        let context = ModelContext(library.container)
        let before = store.executedStatementCount
        let books = try context.fetch(
            FetchDescriptor<RelBook>(
                predicate: #Predicate {
                    $0.author?.name == "Le Guin" && $0.tags.contains { $0.name == "sf" } && $0.chapters.count >= 1
                }))
        #expect(books.map(\.title) == ["The Dispossessed"])
        #expect(store.executedStatementCount - before == 1)
    }

    @Test(arguments: StoreKind.all)
    func batchDeletesAcceptRelationshipPredicates(_ kind: StoreKind) throws {
        let library = try Library(kind)
        let context = ModelContext(library.container)
        try context.delete(model: RelBook.self, where: #Predicate { $0.author?.name == "Le Guin" || $0.tags.isEmpty })
        try context.save()
        #expect(try ModelContext(library.container).fetch(FetchDescriptor<RelBook>()).map(\.title) == ["Kindred"])
    }

    @Test func sqlIsPinned() throws {
        let entity = try #require(
            Schema([RelAuthor.self, RelBook.self, RelChapter.self, RelTag.self]).entity(for: RelBook.self))
        func sql(_ predicate: Predicate<RelBook>) throws -> String {
            try PredicateTranslator.translate(predicate, entity: entity).sql.render(in: SQLiteDialect()).sql
        }
        #expect(
            try sql(#Predicate { $0.author?.name == "Le Guin" })
                == #"((SELECT "t1"."name" FROM "RelAuthor" AS "t1" WHERE "t1"."Z_PK" = "RelBook"."author") COLLATE STRATA_SWIFT IS ?)"#
        )
        #expect(try sql(#Predicate { $0.author == nil }) == #"("author" IS ?)"#)
        #expect(
            try sql(#Predicate { $0.chapters.isEmpty })
                == #"(NOT EXISTS (SELECT 1 FROM "RelChapter" AS "t1" WHERE "t1"."book" = "RelBook"."Z_PK"))"#)
        #expect(
            try sql(#Predicate { $0.tags.allSatisfy { $0.name == "sf" } })
                == #"(NOT EXISTS (SELECT 1 FROM "Z_RelBook_tags__RelTag_books" AS "j1" JOIN "RelTag" AS "t1" ON "t1"."Z_PK" = "j1"."Z_SECOND" "#
                + #"WHERE "j1"."Z_FIRST" = "RelBook"."Z_PK" AND (NOT COALESCE(("t1"."name" COLLATE STRATA_SWIFT IS ?), 0))))"#
        )
    }

    @Test func unsupportedFormsAreRejectedByName() throws {
        let entity = try #require(
            Schema([RelAuthor.self, RelBook.self, RelChapter.self, RelTag.self]).entity(for: RelBook.self))
        #expect {
            try PredicateTranslator.translate(
                #Predicate<RelBook> { book in book.tags.contains { $0.name == book.title } }, entity: entity)
        } throws: { error in
            guard case StrataError.unsupportedPredicate(_, let reason) = error else { return false }
            return reason.contains("enclosing closure")
        }
    }
}
