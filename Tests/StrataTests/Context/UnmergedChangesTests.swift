import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

/// What a context keeps of the container's other contexts' saves until it merges them.
@Suite("Unmerged changes of other contexts")
struct UnmergedChangesTests {
    private func identifiers(_ entity: String, _ keys: some Sequence<Int64>) -> [PersistentIdentifier] {
        keys.map { PersistentIdentifier(entityName: entity, storeIdentifier: nil, key: .permanent($0)) }
    }

    @Test("A save's rows are kept by entity; inserted rows too, since an upsert reports the row it updated")
    func rowsAreKeptByEntity() {
        let changes = UnmergedChanges(
            inserted: identifiers("Book", [7]), updated: identifiers("Book", [1, 2]),
            deleted: identifiers("Author", [3]))
        #expect(changes.changedKeys == ["Book": [1, 2, 7], "Author": [3]])
        #expect(changes.touchedEntities == ["Book", "Author"])
        #expect(changes.entitiesWithUnnamedRows.isEmpty)
    }

    @Test("Past the limit, rows are forgotten and their entities kept, in one save or across several")
    func pastTheLimitOnlyEntitiesAreKept() {
        let large = UnmergedChanges(updated: identifiers("Book", 0...Int64(UnmergedChanges.keyLimit)))
        #expect(large.changedKeys.isEmpty)
        #expect(large.entitiesWithUnnamedRows == ["Book"])

        var merged = UnmergedChanges(updated: identifiers("Book", 0..<Int64(UnmergedChanges.keyLimit / 2)))
        merged.formUnion(UnmergedChanges(deleted: identifiers("Author", [1])))
        #expect(merged.changedKeys.keys.sorted() == ["Author", "Book"])
        let rest = Int64(UnmergedChanges.keyLimit / 2)...Int64(UnmergedChanges.keyLimit)
        merged.formUnion(UnmergedChanges(updated: identifiers("Book", rest)))
        #expect(merged.changedKeys.isEmpty)
        #expect(merged.entitiesWithUnnamedRows == ["Author", "Book"])
        #expect(merged.touchedEntities == ["Author", "Book"])
    }

    @Test("Changes naming no rows are kept after changes that do")
    func unnamedChangesWin() {
        var changes = UnmergedChanges(updated: identifiers("Book", [1]))
        changes.formUnion(UnmergedChanges(entityNames: ["Book"]))
        #expect(changes.changedKeys.isEmpty)
        #expect(changes.entitiesWithUnnamedRows == ["Book"])
    }

    @Test("A save of more rows than are named still reaches the models another context holds")
    func aLargeSaveIsMergedWholesale() throws {
        let store = TestStore(.sqlite)
        let container = try store.container(Book.self)
        let writer = ModelContext(container)
        for index in 0...UnmergedChanges.keyLimit {
            writer.insert(Book(title: "\(index)", author: "a", publisher: "p"))
        }
        try writer.save()
        let reader = ModelContext(container)
        let first = try #require(
            try reader.fetch(FetchDescriptor<Book>(predicate: #Predicate { $0.title == "0" })).first)

        for book in try writer.fetch(FetchDescriptor<Book>()) { book.author = "b" }
        try writer.save()
        #expect(try reader.fetchCount(FetchDescriptor<Book>()) == UnmergedChanges.keyLimit + 1)
        #expect(first.author == "b")
    }
}
