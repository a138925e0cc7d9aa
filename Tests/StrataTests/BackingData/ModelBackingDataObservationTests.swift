import Foundation
import Observation
import Strata
import StrataTestSupport
import Testing

@testable import StrataTestFixtures

// A model's observation registrar is made by the first read of one of its properties, never before: these models
// are fetched by a context nothing observed, and observed only afterwards.
@Model final class ObservedShelf {
    var label: String
    @Relationship(inverse: \ObservedBook.shelf) var books: [ObservedBook] = []

    init(label: String) { self.label = label }
}

@Model class ObservedBook {
    var title: String
    var note: String?
    var shelf: ObservedShelf?
    @Attribute(.ephemeral) var isSelected = false
    @Transient var scratch = 0

    init(title: String, shelf: ObservedShelf?) {
        self.title = title
        self.shelf = shelf
    }
}

@Model final class ObservedAtlas: ObservedBook {
    var scale: Int

    init(title: String, scale: Int) {
        self.scale = scale
        super.init(title: title, shelf: nil)
    }
}

@Suite struct ModelBackingDataObservationTests {
    /// A read and a change of one property of a fetched atlas, or of its shelf (`reachesShelf`).
    struct PropertyCase: Sendable, CustomStringConvertible {
        let description: String
        let read: @Sendable (ObservedAtlas) -> Void
        let change: @Sendable (ObservedAtlas) -> Void
    }

    static let properties: [PropertyCase] = [
        PropertyCase(description: "attribute", read: { _ = $0.title }, change: { $0.title = "Changed" }),
        PropertyCase(description: "optional", read: { _ = $0.note }, change: { $0.note = "Signed" }),
        PropertyCase(description: "to-one", read: { _ = $0.shelf }, change: { $0.shelf = nil }),
        PropertyCase(
            description: "to-many", read: { _ = $0.shelf?.books },
            change: { $0.shelf?.books = [] }),
        PropertyCase(description: "ephemeral", read: { _ = $0.isSelected }, change: { $0.isSelected = true }),
        PropertyCase(description: "subclass", read: { _ = $0.scale }, change: { $0.scale += 1 }),
    ]

    /// A store holding one shelf with one atlas, and a second context that fetches both: no model of it has been
    /// read before the test reads it.
    private func fetchedAtlas(_ kind: StoreKind) throws -> (ModelContainer, ModelContext, ObservedAtlas) {
        let container = try freshContainer(kind, ObservedShelf.self, ObservedBook.self, ObservedAtlas.self)
        let writer = ModelContext(container)
        let atlas = ObservedAtlas(title: "Alps", scale: 50_000)
        writer.insert(atlas)
        atlas.shelf = ObservedShelf(label: "Maps")
        try writer.save()
        let reader = ModelContext(container)
        _ = try reader.fetch(FetchDescriptor<ObservedShelf>())
        let fetched = try #require(try reader.fetch(FetchDescriptor<ObservedAtlas>()).first)
        return (container, reader, fetched)
    }

    @Test(arguments: StoreKind.all, properties)
    func aModelFetchedBeforeAnyObserverReportsEachChange(_ kind: StoreKind, _ property: PropertyCase) throws {
        let (_, _, atlas) = try fetchedAtlas(kind)
        #expect(!atlas.persistentBackingData.hasObservationRegistrar)
        #expect(notifies(atlas, reading: property.read, change: property.change))
        // Observed once, reported once: a second change with no observer left still writes.
        property.change(atlas)
    }

    @Test(arguments: StoreKind.all) func aFetchedModelNobodyReadsHasNoRegistrar(_ kind: StoreKind) throws {
        let (_, context, atlas) = try fetchedAtlas(kind)
        let shelf = try #require(try context.fetch(FetchDescriptor<ObservedShelf>()).first)
        #expect(!shelf.persistentBackingData.hasObservationRegistrar)
        // Counting the shelf's books reads the shelf, not its books.
        #expect(shelf.books.count == 1)
        #expect(shelf.persistentBackingData.hasObservationRegistrar)
        #expect(!atlas.persistentBackingData.hasObservationRegistrar)
        // Each read makes it, observed or not: whether a tracking scope is open can't be asked.
        _ = atlas.scale
        #expect(atlas.persistentBackingData.hasObservationRegistrar)
    }

    @Test(arguments: StoreKind.all) func aModelWrittenBeforeItsFirstReadSavesAndIsObservedLater(
        _ kind: StoreKind
    ) throws {
        let (container, context, atlas) = try fetchedAtlas(kind)
        atlas.title = "Pyrenees"
        atlas.scale = 25_000
        atlas.isSelected = true
        #expect(!atlas.persistentBackingData.hasObservationRegistrar)
        #expect(context.hasChanges)
        try context.save()
        let saved = try #require(try ModelContext(container).fetch(FetchDescriptor<ObservedAtlas>()).first)
        #expect(saved.title == "Pyrenees")
        #expect(saved.scale == 25_000)
        #expect(atlas.title == "Pyrenees")
        #expect(atlas.isSelected)
        #expect(notifies(atlas, reading: { _ = $0.title }, change: { $0.title = "Andes" }))
        #expect(notifies(atlas, reading: { _ = $0.scale }, change: { $0.scale = 10_000 }))
        #expect(!notifies(atlas, reading: { _ = $0.scale }, change: { $0.title = "Atlas" }))
    }

    @Test(arguments: StoreKind.all) func aRollbackReachesOnlyObservedModels(_ kind: StoreKind) throws {
        let (_, context, atlas) = try fetchedAtlas(kind)
        let books = try context.fetch(FetchDescriptor<ObservedBook>())
        atlas.title = "Changed"
        context.rollback()
        // The rollback's notification skips a model without observers, and so makes it no registrar.
        #expect(!atlas.persistentBackingData.hasObservationRegistrar)
        #expect(books.allSatisfy { !$0.persistentBackingData.hasObservationRegistrar })
        // Changed before anything reads it, observed, then rolled back: the rollback tells the observer.
        atlas.title = "Changed again"
        #expect(notifies(atlas, reading: { _ = $0.title }, change: { _ in context.rollback() }))
        #expect(atlas.title == "Alps")
    }

    @Test func aModelMadeByItsInitializerIsObservedFromItsFirstRead() {
        let atlas = ObservedAtlas(title: "Alps", scale: 50_000)
        #expect(!atlas.persistentBackingData.hasObservationRegistrar)
        #expect(notifies(atlas, reading: { _ = $0.scale }, change: { $0.scale = 1 }))
        #expect(notifies(atlas, reading: { _ = $0.title }, change: { $0.title = "Jura" }))
        #expect(notifies(atlas, reading: { _ = $0.isSelected }, change: { $0.isSelected = true }))
        // A `@Transient` property is a plain stored property: kept, and not observed, as in SwiftData.
        atlas.scratch = 3
        #expect(atlas.scratch == 3)
        #expect(!notifies(atlas, reading: { _ = $0.scratch }, change: { $0.scratch = 4 }))
    }

    @Test func theRegistrarIsTheOneTheGettersReportTo() {
        let atlas = ObservedAtlas(title: "Alps", scale: 50_000)
        let registrar = atlas._$observationRegistrar
        #expect(atlas.persistentBackingData.hasObservationRegistrar)
        // A change told through `_$observationRegistrar` reaches an observer of the getter's read.
        #expect(
            notifies(
                atlas, reading: { _ = $0.scale },
                change: { atlas in
                    registrar.withMutation(of: atlas, keyPath: \.scale) {}
                }))
    }
}
