import Foundation
import SwiftData
import Testing

// Implicitly unwrapped properties, as apps converted from Core Data declare them: stored as Optionals, read
// without unwrapping.
@Model final class UnwrappedTrack {
    var name: String

    init(name: String) { self.name = name }
}

@Model final class UnwrappedTalk {
    var title: String!
    var track: UnwrappedTrack!
    var room: Int!

    init(title: String) { self.title = title }
}

@Suite struct ImplicitlyUnwrappedPropertyTests {
    @Test(arguments: StoreKind.all) func implicitlyUnwrappedPropertiesAreStoredAsOptionals(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, UnwrappedTalk.self, UnwrappedTrack.self)
        let context = ModelContext(container)
        let keynote = UnwrappedTalk(title: "Keynote")
        keynote.track = UnwrappedTrack(name: "Main")
        keynote.room = 1
        context.insert(keynote)
        context.insert(UnwrappedTalk(title: "Lightning"))
        try context.save()

        let talks = try ModelContext(container).fetch(
            FetchDescriptor<UnwrappedTalk>(
                predicate: #Predicate { $0.room == nil }, sortBy: [SortDescriptor(\.title)]))
        #expect(talks.map(\.title) == ["Lightning"])
        #expect(talks.first?.track == nil)
        let sorted = try ModelContext(container).fetch(
            FetchDescriptor<UnwrappedTalk>(sortBy: [SortDescriptor(\.title)]))
        let first: UnwrappedTalk = try #require(sorted.first)
        // Read as written in the app: no unwrapping.
        let trackName: String = first.track.name
        #expect(trackName == "Main")
        #expect(first.room + 1 == 2)
        #expect(
            Schema([UnwrappedTalk.self]).entitiesByName["UnwrappedTalk"]?.attributesByName["room"]?.isOptional == true)
    }
}
