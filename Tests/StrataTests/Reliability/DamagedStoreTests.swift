import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

/// Damaged store files: each is refused with a `StrataError` (never a trap) and left byte for byte as it was.
@Suite("Damaged store files")
struct DamagedStoreTests {
    /// A store of a few hundred books (several pages of table and index), closed, so the file holds everything.
    private func filledStore() throws -> TemporaryStore {
        let store = TemporaryStore()
        let context = ModelContext(try store.container(Book.self))
        for number in 0..<400 {
            context.insert(
                Book(
                    title: "Title \(number)", author: "Author \(number % 17)", publisher: "P",
                    summary: String(repeating: "s", count: number % 90)))
        }
        try context.save()
        return store
    }

    /// Opens the store and reads every row; the open or the read must throw a `StrataError` when `mustFail`.
    private func openAndRead(_ store: TemporaryStore) -> (opened: Bool, error: (any Error)?) {
        do {
            let context = ModelContext(try store.container(Book.self))
            _ = try context.fetch(FetchDescriptor<Book>()).map { ($0.title, $0.author, $0.summary) }
            return (true, nil)
        } catch {
            return (false, error)
        }
    }

    @Test("A store truncated at random lengths is refused with a StrataError and left as it was")
    func truncatedAtRandomLengths() throws {
        let store = try filledStore()
        let full = store.bytes()
        var random = SeededGenerator(seed: 18)
        for _ in 0..<12 {
            let length = Int.random(in: 1..<(full.count - 1), using: &random)
            let truncated = full.prefix(length)
            try truncated.write(to: store.url)
            let (opened, error) = openAndRead(store)
            #expect(!opened, "a store truncated to \(length) of \(full.count) bytes opened")
            #expect(error.flatMap(StrataError.init) != nil, "truncated to \(length): \(String(describing: error))")
            #expect(store.bytes() == truncated, "truncated to \(length): the file changed")
        }
    }

    @Test("Random bytes in random pages: a StrataError or a clean read, never a trap, and the file unchanged")
    func randomBytesInPages() throws {
        let store = try filledStore()
        let full = store.bytes()
        var random = SeededGenerator(seed: 1818)
        var refused = 0
        for _ in 0..<16 {
            var damaged = full
            let page = Int.random(in: 0..<(full.count / 4096), using: &random)
            let start = page * 4096 + Int.random(in: 0..<4000, using: &random)
            for offset in start..<min(start + Int.random(in: 1...64, using: &random), damaged.count) {
                damaged[offset] = UInt8.random(in: 0...255, using: &random)
            }
            try damaged.write(to: store.url)
            let (opened, error) = openAndRead(store)
            if !opened {
                refused += 1
                #expect(error.flatMap(StrataError.init) != nil, "\(String(describing: error))")
            }
            #expect(store.bytes() == damaged, "page \(page): the file changed")
        }
        #expect(refused > 0)
    }

    @Test("With checksStoreIntegrityOnOpen, damage in an index no read reaches is refused at open, the file unchanged")
    func fullCheckOnRequestFindsDamageInAnIndex() throws {
        let store = try filledStore()
        var damaged = store.bytes()
        // The last page belongs to the most recently grown b-tree; garbage over its cells, past its page header.
        let lastPage = damaged.count / 4096 - 1
        for offset in (lastPage * 4096 + 200)..<(lastPage * 4096 + 4000) { damaged[offset] = 0x5A }
        try damaged.write(to: store.url)
        var configuration = ModelConfiguration(url: store.url)
        configuration.checksStoreIntegrityOnOpen = true
        let error = try #require(
            try #require(throws: SwiftDataError.self) {
                _ = try ModelContainer(for: Schema([Book.self]), configurations: configuration)
            }.underlyingError)
        #expect(error.caseName == "notAStrataStore", "\(error)")
        #expect(store.bytes() == damaged)
    }

    @Test("A wrong header is refused as not a Strata store, the file unchanged")
    func wrongHeader() throws {
        let store = try filledStore()
        var damaged = store.bytes()
        damaged.replaceSubrange(0..<16, with: Data("SQLite format 2\0".utf8))
        try damaged.write(to: store.url)
        let (opened, error) = openAndRead(store)
        #expect(!opened)
        #expect(error.flatMap(StrataError.init) != nil)
        #expect(store.bytes() == damaged)
    }

    @Test("A save through a container whose file was replaced while open is refused; the new file is untouched")
    func fileReplacedWhileOpen() throws {
        let store = try filledStore()
        let context = ModelContext(try store.container(Book.self))
        _ = try context.fetchCount(FetchDescriptor<Book>())
        let replacement = try filledStore()
        _ = try ModelContext(try replacement.container(Book.self)).fetchCount(FetchDescriptor<Book>())
        let before = replacement.bytes()
        try FileManager.default.removeItem(at: store.url)
        try FileManager.default.copyItem(at: replacement.url, to: store.url)
        context.insert(Book(title: "lost?", author: "", publisher: ""))
        let error = try #require(throws: StrataError.self) { try context.save() }
        #expect("\(error)".contains("replaced"))
        #expect(store.bytes() == before)
        #expect(context.hasChanges)
    }

    @Test("A store deleted while open: the save is refused rather than written to the unlinked file")
    func fileDeletedWhileOpen() throws {
        let store = try filledStore()
        let context = ModelContext(try store.container(Book.self))
        _ = try context.fetchCount(FetchDescriptor<Book>())
        try FileManager.default.removeItem(at: store.url)
        context.insert(Book(title: "lost?", author: "", publisher: ""))
        #expect(throws: StrataError.self) { try context.save() }
        #expect(!FileManager.default.fileExists(atPath: store.url.path))
    }

    /// SQLite can't tell a WAL from another database from this one's (its frames carry no link to the main file, and
    /// a crash leaves a WAL that must be applied), so it applies it: documented in RELIABILITY.md as SQLite's limit.
    @Test("A WAL copied from another store next to this one: never a trap; an error, if any, is a StrataError")
    func walFromAnotherDatabase() throws {
        let other = TemporaryStore()
        let otherContainer = try other.container(Book.self)
        let otherContext = ModelContext(otherContainer)
        for number in 0..<300 { otherContext.insert(Book(title: "other \(number)", author: "", publisher: "")) }
        try otherContext.save()
        // Copied while the other store is open, so its WAL holds that save's pages.
        let foreignWAL = try Data(contentsOf: URL(fileURLWithPath: other.url.path + "-wal"))
        #expect(!foreignWAL.isEmpty)
        let store = try filledStore()
        try foreignWAL.write(to: URL(fileURLWithPath: store.url.path + "-wal"))
        let (opened, error) = openAndRead(store)
        #expect(opened || error.flatMap(StrataError.init) != nil, "\(String(describing: error))")
        withExtendedLifetime(otherContainer) {}
    }
}
