import Foundation
import SwiftData
import Testing

@Model final class NotifiedItem {
    var title: String
    init(title: String) { self.title = title }
}

/// `ModelContext.willSave` / `didSave` and their `NotificationKey`s as SwiftData apps read them, and
/// `fetchIdentifiers(_:batchSize:)`.
@Suite struct SaveNotificationTests {
    /// Collects the notifications one context posts.
    final class Recorder: @unchecked Sendable {
        private let lock = NSLock()
        private var notes: [(name: Notification.Name, userInfo: [AnyHashable: Any]?)] = []
        private var tokens: [any NSObjectProtocol] = []

        init(_ context: ModelContext) {
            for name in [ModelContext.willSave, ModelContext.didSave] {
                tokens.append(
                    NotificationCenter.default.addObserver(forName: name, object: context, queue: nil) { [self] note in
                        lock.withLock { notes.append((note.name, note.userInfo)) }
                    })
            }
        }

        deinit { tokens.forEach(NotificationCenter.default.removeObserver) }

        func take() -> [(name: Notification.Name, userInfo: [AnyHashable: Any]?)] {
            lock.withLock {
                defer { notes = [] }
                return notes
            }
        }
    }

    func identifiers(_ userInfo: [AnyHashable: Any]?, _ key: ModelContext.NotificationKey) -> [PersistentIdentifier]? {
        userInfo?[key.rawValue] as? [PersistentIdentifier]
    }

    @Test(arguments: StoreKind.all) func saveNotificationsCarryTheSavedIdentifiers(_ kind: StoreKind) throws {
        let store = CompatibilityStore(kind)
        let container = try store.container(NotifiedItem.self)
        let context = ModelContext(container)
        let recorder = Recorder(context)
        let first = NotifiedItem(title: "first"), second = NotifiedItem(title: "second")
        context.insert(first)
        context.insert(second)
        try context.save()

        var notes = recorder.take()
        #expect(notes.map(\.name) == [ModelContext.willSave, ModelContext.didSave])
        #expect(notes[0].userInfo == nil)
        let inserted = try #require(identifiers(notes[1].userInfo, .insertedIdentifiers))
        #expect(Set(inserted) == [first.persistentModelID, second.persistentModelID])
        #expect(inserted.allSatisfy { !$0.isTemporary })
        #expect(identifiers(notes[1].userInfo, .updatedIdentifiers) == [])
        #expect(identifiers(notes[1].userInfo, .deletedIdentifiers) == [])
        #expect(notes[1].userInfo?[ModelContext.NotificationKey.queryGeneration.rawValue] == nil)

        first.title = "renamed"
        let deletedID = second.persistentModelID
        context.delete(second)
        try context.save()
        notes = recorder.take()
        #expect(identifiers(notes.last?.userInfo, .updatedIdentifiers) == [first.persistentModelID])
        #expect(identifiers(notes.last?.userInfo, .deletedIdentifiers) == [deletedID])
        #expect(identifiers(notes.last?.userInfo, .insertedIdentifiers) == [])
    }

    /// Public SwiftData code reads the keys as plain strings, the raw values SwiftData's `NotificationKey` has.
    @Test(arguments: StoreKind.all) func didSaveIsReadWithSwiftDataRawStrings(_ kind: StoreKind) throws {
        let store = CompatibilityStore(kind)
        let container = try store.container(NotifiedItem.self)
        let context = ModelContext(container)
        let recorder = Recorder(context)
        let kept = NotifiedItem(title: "kept"), removed = NotifiedItem(title: "removed")
        context.insert(kept)
        context.insert(removed)
        try context.save()
        let inserted = recorder.take().last?.userInfo?["inserted"] as? [PersistentIdentifier]
        #expect(Set(inserted ?? []) == [kept.persistentModelID, removed.persistentModelID])

        kept.title = "renamed"
        let removedID = removed.persistentModelID
        context.delete(removed)
        try context.save()
        let info = recorder.take().last?.userInfo
        #expect(info?["updated"] as? [PersistentIdentifier] == [kept.persistentModelID])
        #expect(info?["deleted"] as? [PersistentIdentifier] == [removedID])
        #expect(info?["inserted"] as? [PersistentIdentifier] == [])
        #expect(info?["insertedIdentifiers"] == nil)
        #expect(ModelContext.NotificationKey(rawValue: "updated") == .updatedIdentifiers)
        #expect(ModelContext.NotificationKey.invalidatedAllIdentifiers.rawValue == "invalidatedAll")
        #expect(ModelContext.NotificationKey.queryGeneration.rawValue == "queryGeneration")
    }

    @MainActor @Test(arguments: StoreKind.all) func eraseInvalidatesEveryRegisteredIdentifier(_ kind: StoreKind) throws
    {
        let store = CompatibilityStore(kind)
        let container = try store.container(NotifiedItem.self)
        let context = container.mainContext
        let item = NotifiedItem(title: "kept")
        context.insert(item)
        try context.save()
        let recorder = Recorder(context)
        try container.erase()
        _ = try context.fetchCount(FetchDescriptor<NotifiedItem>())
        let note = try #require(recorder.take().last)
        #expect(identifiers(note.userInfo, .invalidatedAllIdentifiers)?.contains(item.persistentModelID) == true)
        #expect((note.userInfo?["invalidatedAll"] as? [PersistentIdentifier])?.contains(item.persistentModelID) == true)
    }

    @Test(arguments: StoreKind.all) func batchedIdentifiersComeInTheDescriptorsOrder(_ kind: StoreKind) throws {
        let store = CompatibilityStore(kind)
        let container = try store.container(NotifiedItem.self)
        let context = ModelContext(container)
        let items = (0..<7).map { NotifiedItem(title: "item \($0)") }
        items.forEach(context.insert)
        try context.save()
        let descriptor = FetchDescriptor<NotifiedItem>(
            predicate: #Predicate { $0.title != "item 3" }, sortBy: [SortDescriptor(\.title, order: .reverse)])
        let identifiers: FetchResultsCollection<PersistentIdentifier> = try context.fetchIdentifiers(
            descriptor, batchSize: 2)
        #expect(Array(identifiers) == items.reversed().filter { $0.title != "item 3" }.map(\.persistentModelID))
        #expect(Array(identifiers) == (try context.fetchIdentifiers(descriptor)))
    }
}
