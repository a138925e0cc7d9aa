import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

@Model final class KeyedAuthor {
    var name: String
    var books: [KeyedBook] = []
    init(name: String) { self.name = name }
}

@Model final class KeyedBook {
    #Index<KeyedBook>([\.author], [\.author, \.title])
    #Unique<KeyedBook>([\.author, \.title])
    var title: String
    var author: KeyedAuthor?
    init(title: String, author: KeyedAuthor? = nil) {
        self.title = title
        self.author = author
    }
}

@Suite("#Index and #Unique over to-one relationships")
struct TableDefinitionRelationshipIndexTests {
    @Test(
        "An #Index of a foreign key alone replaces Strata's own foreign-key index instead of colliding with it",
        arguments: StoreKind.all)
    func foreignKeyIndexIsCreatedOnce(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        _ = try store.container(KeyedBook.self)
        let indexes =
            switch kind {
            case .sqlite:
                try store.texts(
                    "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'KeyedBook' AND sql IS NOT NULL ORDER BY name"
                )
            // The indexes written as such, not those backing the primary key and the unique constraint (which SQLite lists
            // without SQL).
            case .postgres:
                try store.postgresRows(
                    """
                    SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND tablename = 'KeyedBook'
                    AND indexname NOT IN (SELECT conname FROM pg_constraint WHERE connamespace = to_regnamespace($1)) ORDER BY 1
                    """)
            }
        #expect(indexes == ["KeyedBook_author_index", "KeyedBook_author_title_index"])
        // The store reopens: its recorded schema matches the models.
        _ = try store.container(KeyedBook.self)
    }

    @Test(
        "A unique constraint with a foreign key matches stored rows whose target is stored or inserted earlier",
        arguments: StoreKind.all)
    func uniqueForeignKeyUpsertsAndRefusesDuplicates(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        let container = try store.container(KeyedBook.self)
        let context = ModelContext(container)
        let herbert = KeyedAuthor(name: "Herbert")
        context.insert(herbert)
        context.insert(KeyedBook(title: "Dune", author: herbert))
        context.insert(KeyedBook(title: "Dune"))
        try context.save()

        // The author was saved before: the insert finds the stored row and updates it.
        context.insert(KeyedBook(title: "Dune", author: herbert))
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<KeyedBook>()) == 2)

        context.mergePolicy = .error
        context.insert(KeyedBook(title: "Dune", author: herbert))
        #expect {
            try context.save()
        } throws: {
            ($0 as? SwiftDataError)?.underlyingError
                == StrataError.uniqueConstraintViolation(entity: "KeyedBook", properties: ["author", "title"])
        }
    }
}
