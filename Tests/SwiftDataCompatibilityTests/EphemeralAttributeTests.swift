import Foundation
import Observation
import SwiftData
import Synchronization
import Testing

/// What an editor keeps beside a model while it is on screen: not `Codable`, never stored.
final class DraftCursor {
    let offset: Int
    init(offset: Int) { self.offset = offset }
}

@Model final class EphemeralNote {
    var text: String
    @Attribute(.ephemeral) var isSelected = false
    @Attribute(.ephemeral) var cursor: DraftCursor?
    @Attribute(.ephemeral) var edits: Int = 0 {
        didSet { lastEditDelta = edits - oldValue }
    }
    @Transient var lastEditDelta = 0

    init(text: String) { self.text = text }
}

@Suite struct EphemeralAttributeTests {
    @Test func ephemeralPropertiesAreObserved() {
        let note = EphemeralNote(text: "Shopping")
        let changed = Mutex(false)
        withObservationTracking {
            _ = note.isSelected
        } onChange: {
            changed.withLock { $0 = true }
        }
        note.isSelected = true
        #expect(changed.withLock { $0 })
        note.cursor = DraftCursor(offset: 4)
        #expect(note.cursor?.offset == 4)
        note.edits = 3
        #expect(note.lastEditDelta == 3)
    }

    @Test(arguments: StoreKind.all) func ephemeralPropertiesAreNeverStored(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, EphemeralNote.self)
        let context = ModelContext(container)
        let note = EphemeralNote(text: "Shopping")
        context.insert(note)
        note.isSelected = true
        note.cursor = DraftCursor(offset: 2)
        try context.save()
        #expect(note.isSelected, "saving leaves the in-memory value alone")

        let loaded = try #require(try ModelContext(container).fetch(FetchDescriptor<EphemeralNote>()).first)
        #expect(loaded.text == "Shopping")
        #expect(!loaded.isSelected)
        #expect(loaded.cursor == nil)
        #expect(loaded.edits == 0)
        let entity = try #require(container.schema.entity(for: EphemeralNote.self))
        #expect(entity.attributes.map(\.name) == ["text"])
    }
}
