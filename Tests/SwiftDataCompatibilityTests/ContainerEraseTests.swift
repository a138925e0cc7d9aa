import Foundation
import SwiftData
import Testing

@Model final class ErasedNote {
    var text: String
    var labels: [ErasedLabel] = []
    init(text: String) { self.text = text }
}

@Model final class ErasedLabel {
    var name: String
    var notes: [ErasedNote] = []
    init(name: String) { self.name = name }
}

/// `ModelContainer.erase()` / `deleteAllData()`, as test suites and "reset all data" buttons call them: nothing of
/// the old data is left, the container works as a fresh one, and live results and history readers see the erase.
@Suite struct ContainerEraseTests {
    private func fill(_ container: ModelContainer) throws -> ErasedNote {
        let context = ModelContext(container)
        let note = ErasedNote(text: "old")
        note.labels = [ErasedLabel(name: "work")]
        context.insert(note)
        try context.save()
        return note
    }

    @MainActor @Test(arguments: StoreKind.all) func eraseLeavesAFreshUsableStore(_ kind: StoreKind) async throws {
        let store = CompatibilityStore(kind)
        let container = try store.container(ErasedNote.self, ErasedLabel.self)
        let note = try fill(container)
        let observer = try ResultsObserver<ErasedNote, Never>(modelContext: container.mainContext)
        #expect(observer.results.count == 1)
        let token = try #require(
            try ModelContext(container).fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).last?.token)

        try container.erase()

        let context = ModelContext(container)
        #expect(try context.fetchCount(FetchDescriptor<ErasedNote>()) == 0)
        #expect(try context.fetchCount(FetchDescriptor<ErasedLabel>()) == 0)
        #expect(try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).isEmpty)
        #expect {
            _ = try context.fetchHistory(
                HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token > token }))
        } throws: { error in
            if case SwiftDataError.historyTokenExpired = error { return true }
            return false
        }
        // The live results reload on their own.
        for _ in 0..<100 where !observer.results.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        #expect(observer.results.isEmpty)
        _ = note

        // Usable as a fresh store: new models save and read back, whatever keys they get.
        let fresh = ErasedNote(text: "new")
        context.insert(fresh)
        try context.save()
        #expect(try ModelContext(container).fetch(FetchDescriptor<ErasedNote>()).map(\.text) == ["new"])
        #expect(
            try ModelContext(try store.container(ErasedNote.self, ErasedLabel.self)).fetch(
                FetchDescriptor<ErasedNote>()
            ).map(\.text) == ["new"])
    }

    @Test(arguments: StoreKind.all) func aContextThatKnewTheOldRowsForgetsThem(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, ErasedNote.self, ErasedLabel.self)
        let context = ModelContext(container)
        let old = ErasedNote(text: "old")
        context.insert(old)
        try context.save()
        old.text = "changed, never saved"

        container.deleteAllData()

        #expect(try context.fetch(FetchDescriptor<ErasedNote>()).isEmpty)
        #expect(old.isDeleted)
        // A new row gets a key of its own (keys continue after an erase): a new model, not the old object.
        let other = ModelContext(container)
        other.insert(ErasedNote(text: "new"))
        try other.save()
        let fetched = try context.fetch(FetchDescriptor<ErasedNote>())
        #expect(fetched.map(\.text) == ["new"])
        #expect(fetched.first !== old)
        try context.save()
        #expect(try ModelContext(container).fetch(FetchDescriptor<ErasedNote>()).map(\.text) == ["new"])
    }

    @Test func eraseRemovesTheLogAndBackupsOfAnSQLiteStore() throws {
        let store = CompatibilityStore(.sqlite)
        let container = try store.container(ErasedNote.self, ErasedLabel.self)
        _ = try fill(container)
        let backup = store.url.path + ".backup-1.0.0"
        #expect(FileManager.default.createFile(atPath: backup, contents: Data("old copy".utf8)))
        try container.erase()
        #expect(!FileManager.default.fileExists(atPath: backup))
        let wal = (try? FileManager.default.attributesOfItem(atPath: store.url.path + "-wal")[.size] as? Int) ?? 0
        #expect(wal == 0)
        // The file alone is an empty store.
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("erased-\(UUID().uuidString).store")
        defer { try? FileManager.default.removeItem(at: copy) }
        try FileManager.default.copyItem(at: store.url, to: copy)
        let reopened = try ModelContainer(
            for: ErasedNote.self, ErasedLabel.self, configurations: ModelConfiguration(url: copy))
        #expect(try ModelContext(reopened).fetchCount(FetchDescriptor<ErasedNote>()) == 0)
    }
}
