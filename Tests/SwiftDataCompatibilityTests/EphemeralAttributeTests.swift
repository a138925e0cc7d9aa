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

/// A hierarchy whose base and subclass each track a value on screen.
@Model class EphemeralShape {
    var name: String
    @Attribute(.ephemeral) var isHovered = false

    init(name: String) { self.name = name }
}

@Model final class EphemeralCircle: EphemeralShape {
    var radius: Double
    @Attribute(.ephemeral) var dragOffset: Double?

    init(name: String, radius: Double) {
        self.radius = radius
        super.init(name: name)
    }
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
    }

    @Test func theSchemaListsEphemeralAttributesWithTheirOption() throws {
        let schema = Schema([EphemeralNote.self])
        let entity = try #require(schema.entity(for: EphemeralNote.self))
        #expect(Set(entity.attributes.map(\.name)) == ["text", "isSelected", "cursor", "edits"])
        let selected = try #require(entity.attributesByName["isSelected"])
        #expect(selected.options.contains(.ephemeral))
        #expect(selected.isTransient)
        #expect(ObjectIdentifier(selected.valueType) == ObjectIdentifier(Bool.self))
        #expect(!selected.isOptional)
        let cursor = try #require(entity.attributesByName["cursor"])
        #expect(ObjectIdentifier(cursor.valueType) == ObjectIdentifier(DraftCursor.self))
        #expect(cursor.isOptional)
        #expect(entity.attributesByName["text"]?.isTransient == false)
        #expect(entity.storedProperties.map(\.name) == ["text"])
        #expect(entity.properties.filter(\.isTransient).map(\.name) == ["isSelected", "cursor", "edits"])
    }

    @Test(arguments: StoreKind.all)
    func subclassesListTheirOwnAndInheritedEphemeralAttributes(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, EphemeralShape.self, EphemeralCircle.self)
        let entity = try #require(container.schema.entity(for: EphemeralCircle.self))
        #expect(entity.properties.filter(\.isTransient).map(\.name) == ["isHovered", "dragOffset"])
        #expect(entity.storedProperties.map(\.name) == ["name", "radius"])
        let context = ModelContext(container)
        context.insert(EphemeralCircle(name: "dot", radius: 2))
        try context.save()
        let circle = try #require(try context.fetch(FetchDescriptor<EphemeralCircle>()).first)
        circle.dragOffset = 4
        #expect(context.hasChanges)
        try context.save()
        #expect(!context.hasChanges)
        circle.isHovered = true
        #expect(circle.hasChanges)
    }

    @Test(arguments: StoreKind.all) func changingAnEphemeralPropertyIsAChangeNeverWritten(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, EphemeralNote.self)
        let context = ModelContext(container)
        context.insert(EphemeralNote(text: "Shopping"))
        try context.save()
        let note = try #require(try context.fetch(FetchDescriptor<EphemeralNote>()).first)
        #expect(!context.hasChanges)

        note.isSelected = true
        #expect(context.hasChanges)
        #expect(note.hasChanges)
        #expect(context.changedModelsArray.count == 1)
        try context.save()
        #expect(!context.hasChanges)
        #expect(!note.hasChanges)
        #expect(note.isSelected, "saving leaves the in-memory value alone")

        note.edits = 2
        #expect(context.hasChanges)
        context.rollback()
        #expect(!context.hasChanges)
        #expect(!note.hasChanges)

        let loaded = try #require(try ModelContext(container).fetch(FetchDescriptor<EphemeralNote>()).first)
        #expect(loaded.text == "Shopping")
        #expect(!loaded.isSelected)
        #expect(loaded.edits == 0)
    }
}
