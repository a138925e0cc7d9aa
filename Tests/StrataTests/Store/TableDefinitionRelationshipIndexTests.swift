import Foundation
import Testing
@testable import Strata

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
    @Test("An #Index of a foreign key alone replaces Strata's own foreign-key index instead of colliding with it")
    func foreignKeyIndexIsCreatedOnce() throws {
        let store = TemporaryStore()
        _ = try store.container(KeyedBook.self)
        let connection = try SQLiteConnection(location: .file(store.url.path), readOnly: true)
        let indexes = try connection.query(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'KeyedBook' AND sql IS NOT NULL ORDER BY name", [])
        #expect(indexes == [[.text("KeyedBook_author_index")], [.text("KeyedBook_author_title_index")]])
        // The store reopens: its recorded schema matches the models.
        _ = try store.container(KeyedBook.self)
    }

    @Test("A unique constraint with a foreign key matches stored rows whose target is stored or inserted earlier")
    func uniqueForeignKeyUpsertsAndRefusesDuplicates() throws {
        let store = TemporaryStore()
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
        #expect(throws: StrataError.uniqueConstraintViolation(entity: "KeyedBook", properties: ["author", "title"])) {
            try context.save()
        }
    }
}
