import Foundation
import SwiftData
import Synchronization
import Testing

@Model final class AutosavedEntry {
    var text: String
    init(text: String) { self.text = text }
}

@Model final class OutsideEntry {
    var text: String
    init(text: String) { self.text = text }
}

@ModelActor actor EntryImporter {
    func importEntries(_ texts: [String]) {
        modelContext.autosaveEnabled = true
        for text in texts { modelContext.insert(AutosavedEntry(text: text)) }
    }
}

/// Waits up to two seconds for `condition`.
@MainActor private func eventually(_ condition: @MainActor () throws -> Bool) async rethrows -> Bool {
    for _ in 0..<200 {
        if try condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return try condition()
}

/// The entries stored in `container`, read by a context of its own.
private func storedCount(_ container: ModelContainer) throws -> Int {
    try ModelContext(container).fetchCount(FetchDescriptor<AutosavedEntry>())
}

/// Context, container and configuration API the way SwiftData code spells it.
@Suite struct ContextAPITests {
    @MainActor @Test(arguments: StoreKind.all) func autosaveOnAContextMadeOnTheMainActorSaves(
        _ kind: StoreKind
    ) async throws {
        let container = try freshContainer(kind, AutosavedEntry.self)
        let context = ModelContext(container)
        context.autosaveEnabled = true
        context.insert(AutosavedEntry(text: "view model"))
        #expect(try await eventually { try storedCount(container) == 1 })
        #expect(!context.hasChanges)
    }

    @Test(arguments: StoreKind.all) func autosaveOnAModelActorsContextSaves(_ kind: StoreKind) async throws {
        let container = try freshContainer(kind, AutosavedEntry.self)
        let importer = EntryImporter(modelContainer: container)
        await importer.importEntries(["a", "b"])
        #expect(try await eventually { try storedCount(container) == 2 })
    }

    @Test(arguments: StoreKind.all) func aModelWhoseDeletionIsSavedHasNoContext(_ kind: StoreKind) throws {
        let context = ModelContext(try freshContainer(kind, AutosavedEntry.self))
        let entry = AutosavedEntry(text: "gone soon")
        context.insert(entry)
        try context.save()
        context.delete(entry)
        // Marked for deletion, not yet saved: still the context's.
        #expect(entry.isDeleted && entry.modelContext === context)
        try context.save()
        // How apps tell a deleted model: its context is `nil` once the deletion is saved.
        #expect(entry.modelContext == nil)
    }

    @Test(arguments: StoreKind.all) func processPendingChangesSavesAnAutosavingContext(_ kind: StoreKind) async throws {
        let container = try freshContainer(kind, AutosavedEntry.self)
        await Task.detached {
            let context = ModelContext(container)
            context.autosaveEnabled = true
            context.insert(AutosavedEntry(text: "background"))
            context.processPendingChanges()
            #expect(!context.hasChanges)
            let unsaved = ModelContext(container)
            unsaved.insert(AutosavedEntry(text: "autosave off"))
            unsaved.processPendingChanges()
            #expect(unsaved.hasChanges)
        }.value
        #expect(try storedCount(container) == 1)
    }

    @Test(arguments: StoreKind.all) func didSaveCarriesTheIdentifiersAndTheEraseInvalidatesThem(
        _ kind: StoreKind
    ) throws {
        let container = try freshContainer(kind, AutosavedEntry.self)
        let context = ModelContext(container)
        let entry = AutosavedEntry(text: "noted")
        context.insert(entry)
        let inserted = Mutex<[PersistentIdentifier]>([])
        let invalidated = Mutex<[PersistentIdentifier]>([])
        let observer = NotificationCenter.default.addObserver(
            forName: ModelContext.didSave, object: context, queue: nil
        ) { note in
            let info = note.userInfo ?? [:]
            if let ids = info[ModelContext.NotificationKey.insertedIdentifiers.rawValue] as? [PersistentIdentifier] {
                inserted.withLock { $0 += ids }
            }
            if let ids = info[ModelContext.NotificationKey.invalidatedAllIdentifiers.rawValue]
                as? [PersistentIdentifier]
            {
                invalidated.withLock { $0 += ids }
            }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try context.save()
        #expect(inserted.withLock { $0 } == [entry.persistentModelID])
        let id = entry.persistentModelID
        try container.erase()
        #expect(try context.fetch(FetchDescriptor<AutosavedEntry>()).isEmpty)
        #expect(invalidated.withLock { $0 } == [id])
    }

    @Test func identifiersContainersAndContextsAreAsSwiftDataDeclaresThem() throws {
        let container = try ModelContainer(
            for: AutosavedEntry.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        let entry = AutosavedEntry(text: "identified")
        context.insert(entry)
        try context.save()
        let ids = [entry.persistentModelID]
        #expect(ids.map(\.id) == ids)
        #expect(container == context.container)
        #expect(context == context)
        #expect(ModelContext(container) != context)
        let configurations: Set<ModelConfiguration> = container.configurations
        #expect(configurations.count == 1)
    }

    @Test func configurationsAreValidatedAsSwiftDataValidatesThem() throws {
        var configuration = ModelConfiguration(isStoredInMemoryOnly: true)
        configuration.schema = Schema([AutosavedEntry.self])
        #expect(configuration.schema?.entities.map(\.name) == ["AutosavedEntry"])
        try configuration.validate()

        let long = FileManager.default.temporaryDirectory.appendingPathComponent(
            String(repeating: "x", count: 260) + ".store")
        #expect { try ModelConfiguration(url: long).validate() } throws: { error in
            SwiftDataError(error) == .configurationFileNameTooLong
        }
        do {
            _ = try ModelContainer(for: AutosavedEntry.self, configurations: ModelConfiguration(url: long))
            Issue.record("a container opened a store whose file name is too long")
        } catch SwiftDataError.configurationFileNameTooLong {
        }
        #expect { try ModelConfiguration("a/b", isStoredInMemoryOnly: true).validate() } throws: { error in
            SwiftDataError(error) == .configurationFileNameContainsInvalidCharacters
        }

        let outside = ModelConfiguration(schema: Schema([OutsideEntry.self]), isStoredInMemoryOnly: true)
        do {
            _ = try ModelContainer(
                for: Schema([AutosavedEntry.self]), configurations: [outside as any DataStoreConfiguration])
            Issue.record("a configuration naming models outside the container's schema was accepted")
        } catch SwiftDataError.configurationSchemaNotFoundInContainerSchema {
        }
        let container = try ModelContainer(
            for: Schema([AutosavedEntry.self]), configurations: [configuration as any DataStoreConfiguration])
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<AutosavedEntry>()) == 0)
    }
}
