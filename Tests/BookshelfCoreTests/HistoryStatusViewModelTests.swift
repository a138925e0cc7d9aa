import Foundation
import Strata
import Testing

@testable import BookshelfCore

@MainActor
@Suite("History status")
struct HistoryStatusViewModelTests {
    @Test("The status tells where history starts and who saved last, updated by a save from another container")
    func followsOtherWriters() async throws {
        let path = TestStores.temporaryPath()
        defer { TestStores.remove(path) }
        let mine = Shelf(container: try StoreLocation.file(path).openContainer())
        let script = Shelf(container: try StoreLocation.file(path).openContainer(), author: "script")

        let status = HistoryStatusViewModel(container: mine.container)
        #expect(status.summary == "history: none yet")

        try script.addBook(BookDraft(title: "Dune", author: "Frank Herbert", publisher: "Chilton"))
        for _ in 0..<200 where status.lastAuthor == nil { try await Task.sleep(for: .milliseconds(10)) }
        #expect(status.lastAuthor == "script")
        #expect(status.summary.hasPrefix("history since 2"))
        #expect(status.summary.hasSuffix(" UTC · last save: script"))

        try mine.addBook(BookDraft(title: "Emma", author: "Jane Austen", publisher: "John Murray"))
        for _ in 0..<200 where status.lastAuthor == "script" { try await Task.sleep(for: .milliseconds(10)) }
        #expect(status.summary.hasSuffix("last save: app"))
    }

    @Test("Timestamps are shown to the second in UTC")
    func timestampFormat() {
        #expect(DayFormat.timestamp(Date(timeIntervalSince1970: 1_796_117_525)) == "2026-12-01 09:32:05 UTC")
    }
}
