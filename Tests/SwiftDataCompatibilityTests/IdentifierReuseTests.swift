import Foundation
import SwiftData
import Testing

@Model final class OutboxNote {
    var text: String
    init(text: String) { self.text = text }
}

@Model class OutboxEntry {
    var title: String
    init(title: String) { self.title = title }
}

@Model final class OutboxRun: OutboxEntry {
    var miles: Double
    init(title: String, miles: Double) {
        self.miles = miles
        super.init(title: title)
    }
}

// An app whose second version drops its memos and whose third brings them back.
enum MemoSchemaV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Memo.self, Shelf.self] }
    @Model final class Memo {
        var text: String
        init(text: String) { self.text = text }
    }
    @Model final class Shelf {
        var label: String
        init(label: String) { self.label = label }
    }
}

enum MemoSchemaV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Shelf.self] }
    @Model final class Shelf {
        var label: String
        init(label: String) { self.label = label }
    }
}

enum MemoSchemaV3: VersionedSchema {
    static let versionIdentifier = Schema.Version(3, 0, 0)
    static var models: [any PersistentModel.Type] { [Memo.self, Shelf.self] }
    @Model final class Memo {
        var text: String
        init(text: String) { self.text = text }
    }
    @Model final class Shelf {
        var label: String
        init(label: String) { self.label = label }
    }
}

enum MemoPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [MemoSchemaV1.self, MemoSchemaV2.self, MemoSchemaV3.self] }
    static var stages: [MigrationStage] {
        [
            .lightweight(fromVersion: MemoSchemaV1.self, toVersion: MemoSchemaV2.self),
            .lightweight(fromVersion: MemoSchemaV2.self, toVersion: MemoSchemaV3.self),
        ]
    }
}

/// A store never gives a deleted model's identifier to another model, as Core Data never reuses a primary key: sync
/// outboxes, caches and history consumers key what they know by `PersistentIdentifier`, and an identifier an app
/// kept resolves to nothing once its model is deleted, never to a newer model.
@Suite struct IdentifierReuseTests {
    /// Inserts notes with `texts`, saving, and returns them.
    private func insert(_ texts: [String], into context: ModelContext) throws -> [OutboxNote] {
        let notes = texts.map(OutboxNote.init(text:))
        for note in notes { context.insert(note) }
        try context.save()
        return notes
    }

    /// Expects that `identifier` names no stored model: a fetch by it finds nothing, `existingModel(for:)` throws,
    /// and `model(for:)` doesn't read any stored note's text.
    private func expectGone(_ identifier: PersistentIdentifier, in container: ModelContainer) throws {
        let context = ModelContext(container)
        let texts = try context.fetch(FetchDescriptor<OutboxNote>()).map(\.text)
        #expect(
            try context.fetch(FetchDescriptor<OutboxNote>(predicate: #Predicate { $0.persistentModelID == identifier }))
                .isEmpty)
        #expect(throws: (any Error).self) { let _: OutboxNote = try context.existingModel(for: identifier) }
        let resolved = context.model(for: identifier) as? OutboxNote
        #expect(resolved.map { !texts.contains($0.text) } ?? true)
    }

    @Test(arguments: StoreKind.all) func theNewestModelDeletedGivesItsIdentifierToNoInsert(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, OutboxNote.self)
        let context = ModelContext(container)
        let notes = try insert(["first", "second", "third"], into: context)
        let deleted = notes[2].persistentModelID
        context.delete(notes[2])
        try context.save()

        let inserted = try insert(["fourth"], into: context)[0]
        #expect(inserted.persistentModelID != deleted)
        #expect(!notes.map(\.persistentModelID).contains(inserted.persistentModelID))
        try expectGone(deleted, in: container)
    }

    @Test(arguments: StoreKind.all) func aDeleteAndAnInsertInOneSaveGiveTwoIdentifiers(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, OutboxNote.self)
        let context = ModelContext(container)
        let notes = try insert(["first", "second"], into: context)
        let deleted = notes[1].persistentModelID
        context.delete(notes[1])
        let replacements = ["third", "fourth"].map(OutboxNote.init(text:))
        for note in replacements { context.insert(note) }
        try context.save()
        let identifiers = replacements.map(\.persistentModelID)
        #expect(!identifiers.contains(deleted))
        #expect(Set(identifiers + notes.map(\.persistentModelID)).count == 4)
        try expectGone(deleted, in: container)
    }

    @Test(arguments: StoreKind.all) func anotherContextsInsertAfterTheDeleteGetsANewIdentifier(_ kind: StoreKind) throws
    {
        let store = CompatibilityStore(kind)
        let container = try store.container(OutboxNote.self)
        let notes = try insert(["first", "second"], into: ModelContext(container))
        let deleted = notes[1].persistentModelID
        let deleting = ModelContext(container)
        deleting.delete(try deleting.existingModel(for: deleted) as OutboxNote)
        try deleting.save()

        // Another context of the container, and a container opened again on the store.
        let other = try insert(["from another context"], into: ModelContext(container))[0]
        let reopened = try store.container(OutboxNote.self)
        let later = try insert(["from another container"], into: ModelContext(reopened))[0]
        let identifiers = [deleted, other.persistentModelID, later.persistentModelID]
        #expect(Set(identifiers).count == 3)
        try expectGone(deleted, in: reopened)
    }

    @Test(arguments: StoreKind.all) func allDeletedThenInsertedKeepsCounting(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, OutboxNote.self)
        let context = ModelContext(container)
        let notes = try insert(["first", "second"], into: context)
        try context.delete(model: OutboxNote.self)
        try context.save()
        let inserted = try insert(["third"], into: context)[0]
        #expect(!notes.map(\.persistentModelID).contains(inserted.persistentModelID))
    }

    @Test(arguments: StoreKind.all) func anIdentifierFromBeforeAnEraseNamesNoNewModel(_ kind: StoreKind) throws {
        let store = CompatibilityStore(kind)
        let container = try store.container(OutboxNote.self)
        let before = try insert(["first", "second"], into: ModelContext(container)).map(\.persistentModelID)

        try container.erase()

        let after = try insert(["after the erase", "and another"], into: ModelContext(container))
        #expect(Set(after.map(\.persistentModelID)).isDisjoint(with: before))
        for identifier in before { try expectGone(identifier, in: container) }
        // A container opened again on the erased store continues too.
        let reopened = try store.container(OutboxNote.self)
        let later = try insert(["reopened"], into: ModelContext(reopened))[0]
        #expect(!before.contains(later.persistentModelID))
    }

    @Test(arguments: StoreKind.all) func aHierarchyIssuesEachIdentifierOnce(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, OutboxEntry.self, OutboxRun.self)
        let context = ModelContext(container)
        let entry = OutboxEntry(title: "entry")
        let run = OutboxRun(title: "run", miles: 3)
        context.insert(entry)
        context.insert(run)
        try context.save()
        let deleted = run.persistentModelID
        context.delete(run)
        try context.save()

        // The next rows of either class take keys after the deleted run's: one table, one sequence of keys.
        let runAfter = OutboxRun(title: "run after", miles: 5)
        context.insert(runAfter)
        try context.save()
        let entryAfter = OutboxEntry(title: "entry after")
        context.insert(entryAfter)
        try context.save()
        #expect(runAfter.persistentModelID != deleted)
        #expect(entryAfter.persistentModelID != entry.persistentModelID)
        let fresh = ModelContext(container)
        #expect(
            try fresh.fetch(FetchDescriptor<OutboxRun>(predicate: #Predicate { $0.persistentModelID == deleted }))
                .isEmpty)
        #expect(try fresh.fetch(FetchDescriptor<OutboxRun>()).map(\.title) == ["run after"])
        #expect(try fresh.fetchCount(FetchDescriptor<OutboxEntry>()) == 3)
    }

    @Test(arguments: StoreKind.all) func aModelMovedUnderANewBaseKeepsItsKeysIssued(_ kind: StoreKind) throws {
        let store = CompatibilityStore(kind)
        let deleted: PersistentIdentifier
        do {
            let context = ModelContext(try store.container(Schema(versionedSchema: MoveSchemaV1.self)))
            let parrots = ["Kiwi", "Mango", "Pip"].map(MoveSchemaV1.Parrot.init(name:))
            for parrot in parrots { context.insert(parrot) }
            try context.save()
            deleted = parrots[2].persistentModelID
            context.delete(parrots[2])
            try context.save()
        }
        let container = try store.container(Schema(versionedSchema: MoveSchemaV2.self), migrationPlan: MovePlan.self)
        let context = ModelContext(container)
        #expect(try context.fetch(FetchDescriptor<MoveSchemaV2.Parrot>()).map(\.name).sorted() == ["Kiwi", "Mango"])
        let parrot = MoveSchemaV2.Parrot(name: "Rio", words: 3)
        let pet = MoveSchemaV2.Pet(name: "Rex")
        context.insert(parrot)
        context.insert(pet)
        try context.save()
        #expect(parrot.persistentModelID != deleted)
        #expect(
            try ModelContext(container).fetch(
                FetchDescriptor<MoveSchemaV2.Parrot>(predicate: #Predicate { $0.persistentModelID == deleted })
            ).isEmpty)
    }

    @Test(arguments: StoreKind.all) func aModelDroppedAndAddedAgainContinuesAfterItsOldKeys(_ kind: StoreKind) throws {
        let store = CompatibilityStore(kind)
        let old: [PersistentIdentifier]
        do {
            let context = ModelContext(try store.container(Schema(versionedSchema: MemoSchemaV1.self)))
            let memos = ["one", "two"].map(MemoSchemaV1.Memo.init(text:))
            for memo in memos { context.insert(memo) }
            try context.save()
            old = memos.map(\.persistentModelID)
        }
        let container = try store.container(Schema(versionedSchema: MemoSchemaV3.self), migrationPlan: MemoPlan.self)
        let context = ModelContext(container)
        #expect(try context.fetchCount(FetchDescriptor<MemoSchemaV3.Memo>()) == 0)
        let memo = MemoSchemaV3.Memo(text: "three")
        context.insert(memo)
        try context.save()
        #expect(!old.contains(memo.persistentModelID))
    }
}
