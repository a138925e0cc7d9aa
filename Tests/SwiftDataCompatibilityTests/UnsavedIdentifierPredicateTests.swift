import Foundation
import SwiftData
import Testing

@Model final class DraftNote {
    var text: String
    var folder: DraftFolder?
    init(text: String) { self.text = text }
}

@Model final class DraftFolder {
    var name: String
    @Relationship(inverse: \DraftNote.folder) var notes: [DraftNote] = []
    init(name: String) { self.name = name }
}

/// Predicates on `persistentModelID` with identifiers of models inserted but not saved yet match those models in
/// every fetch that includes pending changes, and in `delete(model:where:)`, as apps' "delete this graph" code
/// expects.
@Suite struct UnsavedIdentifierPredicateTests {
    @Test(arguments: StoreKind.all) func anUnsavedModelsIdentifierMatchesIt(_ kind: StoreKind) throws {
        let context = ModelContext(try freshContainer(kind, DraftNote.self, DraftFolder.self))
        let saved = DraftNote(text: "saved")
        context.insert(saved)
        try context.save()
        let draft = DraftNote(text: "draft")
        context.insert(draft)
        let id = draft.persistentModelID
        #expect(id.isTemporary)

        let byID = try context.fetch(FetchDescriptor<DraftNote>(predicate: #Predicate { $0.persistentModelID == id }))
        #expect(byID.map(\.text) == ["draft"])
        #expect(
            try context.fetchCount(FetchDescriptor<DraftNote>(predicate: #Predicate { $0.persistentModelID == id }))
                == 1)
        let others = try context.fetch(FetchDescriptor<DraftNote>(predicate: #Predicate { $0.persistentModelID != id }))
        #expect(others.map(\.text) == ["saved"])

        let ids = [id, saved.persistentModelID]
        let listed = try context.fetch(
            FetchDescriptor<DraftNote>(
                predicate: #Predicate { ids.contains($0.persistentModelID) }, sortBy: [SortDescriptor(\.text)]))
        #expect(listed.map(\.text) == ["draft", "saved"])

        var storedOnly = FetchDescriptor<DraftNote>(predicate: #Predicate { $0.persistentModelID == id })
        storedOnly.includePendingChanges = false
        #expect(try context.fetch(storedOnly).isEmpty)
    }

    @Test(arguments: StoreKind.all) func deleteModelWhereDeletesANeverSavedGraph(_ kind: StoreKind) throws {
        let context = ModelContext(try freshContainer(kind, DraftNote.self, DraftFolder.self))
        let keep = DraftNote(text: "keep")
        context.insert(keep)
        let folder = DraftFolder(name: "Inbox")
        let notes = [DraftNote(text: "a"), DraftNote(text: "b")]
        context.insert(folder)
        for note in notes {
            context.insert(note)
            note.folder = folder
        }
        let noteIDs = notes.map(\.persistentModelID)
        let folderID = folder.persistentModelID
        try context.delete(model: DraftNote.self, where: #Predicate { noteIDs.contains($0.persistentModelID) })
        try context.delete(model: DraftFolder.self, where: #Predicate { $0.persistentModelID == folderID })
        #expect(try context.fetch(FetchDescriptor<DraftNote>()).map(\.text) == ["keep"])
        #expect(try context.fetch(FetchDescriptor<DraftFolder>()).isEmpty)
        try context.save()
        let check = ModelContext(context.container)
        #expect(try check.fetch(FetchDescriptor<DraftNote>()).map(\.text) == ["keep"])
        #expect(try check.fetchCount(FetchDescriptor<DraftFolder>()) == 0)
    }

    @Test(arguments: StoreKind.all) func aRelationshipToAnUnsavedModelMatchesItsIdentifier(_ kind: StoreKind) throws {
        let context = ModelContext(try freshContainer(kind, DraftNote.self, DraftFolder.self))
        let folder = DraftFolder(name: "Inbox")
        context.insert(folder)
        let note = DraftNote(text: "filed")
        context.insert(note)
        note.folder = folder
        context.insert(DraftNote(text: "loose"))
        let folderID = folder.persistentModelID
        let filed = try context.fetch(
            FetchDescriptor<DraftNote>(predicate: #Predicate { $0.folder?.persistentModelID == folderID }))
        #expect(filed.map(\.text) == ["filed"])
    }
}
