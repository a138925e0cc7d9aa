import Foundation
import Observation
import StrataTestSupport
import SwiftData
import Testing

// A model fetched by a context nobody observed yet, then observed property by property, as a SwiftUI view that
// shows one fetched row observes it: every persistent property, attributes of each stored kind and both sides of a
// relationship, must report its own changes and only those.
@Model final class WatchedShelf {
    var label: String
    @Relationship(inverse: \WatchedVolume.shelf) var volumes: [WatchedVolume] = []

    init(label: String) {
        self.label = label
    }
}

@Model final class WatchedVolume {
    var title: String
    var pages: Int
    var rating: Double
    var isLent: Bool
    var acquired: Date
    var note: String?
    var keywords: [String]
    var shelf: WatchedShelf?

    init(title: String, shelf: WatchedShelf?) {
        self.title = title
        pages = 100
        rating = 3.5
        isLent = false
        acquired = Date(timeIntervalSinceReferenceDate: 0)
        note = nil
        keywords = ["first"]
        self.shelf = shelf
    }
}

@Suite struct FetchedModelObservationTests {
    /// A change to one property of a fetched volume, and a read of the same property.
    struct PropertyCase: Sendable, CustomStringConvertible {
        let description: String
        let read: @Sendable (WatchedVolume) -> Void
        let change: @Sendable (WatchedVolume) -> Void
    }

    static let properties: [PropertyCase] = [
        PropertyCase(description: "title", read: { _ = $0.title }, change: { $0.title = "Changed" }),
        PropertyCase(description: "pages", read: { _ = $0.pages }, change: { $0.pages += 1 }),
        PropertyCase(description: "rating", read: { _ = $0.rating }, change: { $0.rating = 4.5 }),
        PropertyCase(description: "isLent", read: { _ = $0.isLent }, change: { $0.isLent.toggle() }),
        PropertyCase(
            description: "acquired", read: { _ = $0.acquired },
            change: { $0.acquired = Date(timeIntervalSinceReferenceDate: 86_400) }),
        PropertyCase(description: "note", read: { _ = $0.note }, change: { $0.note = "Signed" }),
        PropertyCase(description: "keywords", read: { _ = $0.keywords }, change: { $0.keywords.append("second") }),
        PropertyCase(description: "shelf", read: { _ = $0.shelf }, change: { $0.shelf = nil }),
    ]

    /// A store holding one shelf with one volume, and a second context that fetches the volume: no model of it
    /// has been observed or read before the test observes it.
    private func fetchedVolume(_ kind: StoreKind) throws -> (ModelContainer, ModelContext, WatchedVolume) {
        let container = try freshContainer(kind, WatchedShelf.self, WatchedVolume.self)
        let writer = ModelContext(container)
        writer.insert(WatchedVolume(title: "Dune", shelf: WatchedShelf(label: "Hall")))
        try writer.save()
        let reader = ModelContext(container)
        let volume = try #require(try reader.fetch(FetchDescriptor<WatchedVolume>()).first)
        return (container, reader, volume)
    }

    @Test(arguments: StoreKind.all, properties)
    func aFetchedModelReportsAChangeToEachProperty(_ kind: StoreKind, _ property: PropertyCase) throws {
        let (_, _, volume) = try fetchedVolume(kind)
        #expect(notifies(volume, reading: property.read, change: property.change))
    }

    @Test(arguments: StoreKind.all, properties)
    func aFetchedModelReportsNoChangeToAnotherProperty(_ kind: StoreKind, _ property: PropertyCase) throws {
        let (_, _, volume) = try fetchedVolume(kind)
        // `pages` is read when another property changes, `title` when `pages` changes.
        let other: (WatchedVolume) -> Void = property.description == "pages" ? { _ = $0.title } : { _ = $0.pages }
        #expect(!notifies(volume, reading: other, change: property.change))
    }

    @Test(arguments: StoreKind.all) func aPropertyNotFetchedYetReportsItsChange(_ kind: StoreKind) throws {
        let (container, _, _) = try fetchedVolume(kind)
        var descriptor = FetchDescriptor<WatchedVolume>()
        descriptor.propertiesToFetch = [\.title]
        let volume = try #require(try ModelContext(container).fetch(descriptor).first)
        // Reading `pages` inside the observation loads it; the change after it is still reported.
        #expect(notifies(volume, reading: { _ = $0.pages }, change: { $0.pages = 7 }))
        #expect(volume.pages == 7)
    }

    @Test(arguments: StoreKind.all) func theInverseSideReportsAnAssignment(_ kind: StoreKind) throws {
        let (_, context, volume) = try fetchedVolume(kind)
        let hall = try #require(try context.fetch(FetchDescriptor<WatchedShelf>()).first)
        let study = WatchedShelf(label: "Study")
        context.insert(study)
        // Moving the volume changes both shelves' `volumes`, though only the volume's `shelf` was assigned.
        #expect(notifies(hall, reading: { _ = $0.volumes }, change: { _ in volume.shelf = study }))
        #expect(hall.volumes.isEmpty)
        #expect(notifies(hall, reading: { _ = $0.volumes }, change: { _ in volume.shelf = hall }))
        #expect(study.volumes.isEmpty)
        #expect(hall.volumes.map(\.title) == ["Dune"])
    }
}
