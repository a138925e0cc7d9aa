import Foundation
import Strata
import StrataTestSupport
import Testing

@testable import BookshelfCore

/// The history flow across real processes: the `bookshelf` scripting command (author "script") saves in a child
/// process; the app reads the history after its token, finds the inserted book and fetches it.
@Suite("History written by another process")
struct HistoryProcessTests {
    @Test func appFindsTheBookAScriptProcessAdded() async throws {
        guard let binary = TestStores.bookshelfBinary() else {
            Issue.record("the bookshelf executable was not found next to the tests")
            return
        }
        let path = TestStores.temporaryPath()
        defer { TestStores.remove(path) }
        let container = try StoreLocation.file(path).openContainer()
        try Shelf(container: container).insert(Book(title: "Dune", author: "Frank Herbert", publisher: "Chilton"))
        let context = ModelContext(container)
        let token = try #require(try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).last?.token)

        let child = try await ChildProcess.run(
            binary,
            [
                "--store", path, "books", "add", "--title", "Kindred", "--author", "Octavia E. Butler", "--publisher",
                "Doubleday",
            ])
        #expect(child.terminationStatus == 0, "\(child.output)")

        let transactions = try context.fetchHistory(
            HistoryDescriptor<DefaultHistoryTransaction>(
                predicate: #Predicate { $0.token > token && $0.author == "script" }))
        #expect(transactions.count == 1)
        #expect(transactions.first?.processIdentifier == String(child.processIdentifier))
        let inserted = transactions.flatMap(\.changes).compactMap { change -> PersistentIdentifier? in
            if case .insert = change { return change.changedPersistentIdentifier }
            return nil
        }
        let titles = try inserted.map { identifier in
            try context.fetch(FetchDescriptor<Book>(predicate: #Predicate { $0.persistentModelID == identifier })).map(
                \.title)
        }
        #expect(titles == [["Kindred"]])
    }
}
