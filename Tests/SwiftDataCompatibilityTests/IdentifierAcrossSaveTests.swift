import Foundation
import StrataTestSupport
import SwiftData
import Testing

@Model final class CapturedFolder {
    var name: String
    @Relationship(deleteRule: .cascade, inverse: \CapturedNote.folder) var notes: [CapturedNote] = []
    init(name: String) { self.name = name }
}

@Model final class CapturedNote {
    var text: String
    var folder: CapturedFolder?
    init(text: String, folder: CapturedFolder? = nil) {
        self.text = text
        self.folder = folder
    }
}

/// An identifier taken before the save that made it permanent, used after it, as apps do when they hand
/// `persistentModelID` to another part of the app right after an insert.
@Suite("Identifiers captured before a save")
struct IdentifierAcrossSaveTests {
    private func container(_ kind: StoreKind) throws -> ModelContainer {
        try freshContainer(kind, CapturedFolder.self, CapturedNote.self)
    }

    @Test(arguments: StoreKind.all) func aTemporaryIdentifierFindsItsModelAfterTheSave(_ kind: StoreKind) throws {
        let context = ModelContext(try container(kind))
        let folder = CapturedFolder(name: "Inbox")
        context.insert(folder)
        let captured = folder.persistentModelID
        #expect(captured.isTemporary)
        try context.save()
        #expect(!folder.persistentModelID.isTemporary)

        #expect(context.model(for: captured) === folder)
        let registered: CapturedFolder? = context.registeredModel(for: captured)
        #expect(registered === folder)
        let existing: CapturedFolder = try context.existingModel(for: captured)
        #expect(existing === folder)
        // A model the lookup resolved is the real one: relating to it and deleting it work as they would on it.
        guard let resolved = context.model(for: captured) as? CapturedFolder else {
            Issue.record("model(for:) did not give a CapturedFolder")
            return
        }
        context.insert(CapturedNote(text: "first", folder: resolved))
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<CapturedFolder>()) == 1)
        #expect(folder.notes.map(\.text) == ["first"])
        context.delete(context.model(for: captured))
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<CapturedFolder>()) == 0)
        #expect(try context.fetchCount(FetchDescriptor<CapturedNote>()) == 0)
    }

    @Test(arguments: StoreKind.all) func aPlaceholderForAMissingModelIsNeverInsertedBySave(_ kind: StoreKind) throws {
        let container = try container(kind)
        let context = ModelContext(container)
        // A temporary identifier of another context, never saved: no stored model has it.
        let elsewhere = ModelContext(container)
        let unsaved = CapturedFolder(name: "Never saved")
        elsewhere.insert(unsaved)
        let missing = unsaved.persistentModelID
        guard let placeholder = context.model(for: missing) as? CapturedFolder else {
            Issue.record("model(for:) did not give a CapturedFolder")
            return
        }
        #expect(placeholder.isDeleted)
        context.insert(CapturedNote(text: "orphan", folder: placeholder))
        do {
            try context.save()
            Issue.record("a save inserted the placeholder model(for:) gave")
        } catch {
            #expect("\(error)".contains("CapturedFolder"))
        }
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<CapturedFolder>()) == 0)
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<CapturedNote>()) == 0)
        // Inserting the placeholder itself saves nothing either.
        let other = ModelContext(container)
        other.insert(placeholder)
        #expect(throws: (any Error).self) { try other.save() }
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<CapturedFolder>()) == 0)
    }

    @Test(arguments: StoreKind.all) func aCapturedIdentifierInAPredicateFindsTheSavedRow(_ kind: StoreKind) throws {
        let context = ModelContext(try container(kind))
        let inbox = CapturedFolder(name: "Inbox")
        let archive = CapturedFolder(name: "Archive")
        context.insert(inbox)
        context.insert(archive)
        context.insert(CapturedFolder(name: "Drafts"))
        let capturedID = inbox.persistentModelID
        let capturedIDs = [inbox.persistentModelID, archive.persistentModelID]
        try context.save()

        let one = FetchDescriptor<CapturedFolder>(predicate: #Predicate { $0.persistentModelID == capturedID })
        #expect(try context.fetch(one).map(\.name) == ["Inbox"])
        #expect(try ModelContext(context.container).fetch(one).isEmpty, "another context never issued the identifier")
        #expect(try context.fetchCount(one) == 1)
        #expect(try context.fetchIdentifiers(one) == [inbox.persistentModelID])
        let listed = FetchDescriptor<CapturedFolder>(
            predicate: #Predicate { capturedIDs.contains($0.persistentModelID) }, sortBy: [SortDescriptor(\.name)])
        #expect(try context.fetch(listed).map(\.name) == ["Archive", "Inbox"])
        var enumerated: [String] = []
        try context.enumerate(listed) { enumerated.append($0.name) }
        #expect(enumerated == ["Archive", "Inbox"])

        // A relationship compared with a captured identifier, and the models it names deleted by predicate.
        context.insert(CapturedNote(text: "kept", folder: inbox))
        try context.save()
        let inInbox = FetchDescriptor<CapturedNote>(
            predicate: #Predicate { $0.folder?.persistentModelID == capturedID })
        #expect(try context.fetch(inInbox).map(\.text) == ["kept"])
        try context.delete(model: CapturedFolder.self, where: #Predicate { capturedIDs.contains($0.persistentModelID) })
        try context.save()
        #expect(try context.fetch(FetchDescriptor<CapturedFolder>()).map(\.name) == ["Drafts"])
    }
}
