import Foundation
import SwiftData
import Testing

@Model final class JSONTrip {
    var name: String
    var startDate: Date
    var budget: Double
    @Relationship(deleteRule: .cascade, inverse: \JSONStop.trip) var stops: [JSONStop] = []
    var tags: [JSONTag] = []

    init(name: String, startDate: Date, budget: Double) {
        self.name = name
        self.startDate = startDate
        self.budget = budget
    }
}

@Model final class JSONStop {
    var name: String
    var nights: Int
    var trip: JSONTrip?

    init(name: String, nights: Int) {
        self.name = name
        self.nights = nights
    }
}

@Model final class JSONTag {
    var label: String
    @Relationship(inverse: \JSONTrip.tags) var trips: [JSONTrip] = []

    init(label: String) { self.label = label }
}

/// A store written against SwiftData's `DataStore` protocols (a JSON file, as Apple's WWDC24 sample) used by
/// unchanged SwiftData code: containers, contexts, `#Predicate` judged in memory, relationships, live results.
@Suite struct CustomStoreTests {
    let fileURL = FileManager.default.temporaryDirectory.appendingPathComponent("trips-\(UUID().uuidString).json")
    let schema = Schema([JSONTrip.self, JSONStop.self, JSONTag.self])

    func configuration() -> JSONStoreConfiguration {
        JSONStoreConfiguration(name: "Trips", schema: schema, fileURL: fileURL)
    }

    func container() throws -> ModelContainer {
        try ModelContainer(for: schema, configurations: [configuration()])
    }

    /// Saves Tokyo (3 stops, tagged "city") and Alps (1 stop, tagged "city" and "hiking").
    func fill(_ container: ModelContainer) throws {
        let context = ModelContext(container)
        let city = JSONTag(label: "city"), hiking = JSONTag(label: "hiking")
        let tokyo = JSONTrip(name: "Tokyo", startDate: Date(timeIntervalSince1970: 2_000_000), budget: 2500.5)
        tokyo.stops = [
            JSONStop(name: "Shinjuku", nights: 3), JSONStop(name: "Asakusa", nights: 2),
            JSONStop(name: "Kyoto", nights: 4),
        ]
        tokyo.tags = [city]
        let alps = JSONTrip(name: "Alps", startDate: Date(timeIntervalSince1970: 1_000_000), budget: 900)
        alps.stops = [JSONStop(name: "Zermatt", nights: 5)]
        alps.tags = [city, hiking]
        context.insert(tokyo)
        context.insert(alps)
        try context.save()
    }

    @Test func modelsSurviveReopeningWithTheirRelationships() throws {
        defer { try? FileManager.default.removeItem(at: fileURL) }
        try fill(try container())

        // A new container reads the file alone.
        let context = ModelContext(try container())
        let trips = try context.fetch(FetchDescriptor<JSONTrip>(sortBy: [SortDescriptor(\.startDate)]))
        #expect(trips.map(\.name) == ["Alps", "Tokyo"])
        #expect(trips[1].budget == 2500.5)
        #expect(trips[1].startDate == Date(timeIntervalSince1970: 2_000_000))
        #expect(Set(trips[1].stops.map(\.name)) == ["Shinjuku", "Asakusa", "Kyoto"])
        #expect(trips[1].stops.allSatisfy { $0.trip === trips[1] })
        #expect(Set(trips[0].tags.map(\.label)) == ["city", "hiking"])
        let city = try #require(
            try context.fetch(FetchDescriptor<JSONTag>(predicate: #Predicate { $0.label == "city" })).first)
        #expect(Set(city.trips.map(\.name)) == ["Tokyo", "Alps"])
        #expect(trips.allSatisfy { !$0.persistentModelID.isTemporary })

        // The file names every model by a permanent identifier, relationships included.
        let text = try String(contentsOf: fileURL, encoding: .utf8)
        #expect(!text.contains("temporary"))
    }

    @Test func predicatesSortsAndLimitsRunInMemoryWhenTheStoreAsks() throws {
        defer { try? FileManager.default.removeItem(at: fileURL) }
        let container = try container()
        try fill(container)
        let context = ModelContext(container)

        var longest = FetchDescriptor<JSONStop>(
            predicate: #Predicate { $0.nights >= 3 }, sortBy: [SortDescriptor(\.nights, order: .reverse)])
        longest.fetchLimit = 2
        #expect(try context.fetch(longest).map(\.name) == ["Zermatt", "Kyoto"])
        longest.fetchOffset = 1
        #expect(try context.fetch(longest).map(\.name) == ["Kyoto", "Shinjuku"])
        #expect(try context.fetchCount(FetchDescriptor<JSONStop>(predicate: #Predicate { $0.nights >= 3 })) == 3)

        // Through relationships, both ways.
        let inTokyo = try context.fetch(
            FetchDescriptor<JSONStop>(
                predicate: #Predicate { $0.trip?.name == "Tokyo" }, sortBy: [SortDescriptor(\.name)]))
        #expect(inTokyo.map(\.name) == ["Asakusa", "Kyoto", "Shinjuku"])
        let withLongStay = try context.fetch(
            FetchDescriptor<JSONTrip>(
                predicate: #Predicate { trip in
                    trip.stops.contains { $0.nights > 4 }
                }))
        #expect(withLongStay.map(\.name) == ["Alps"])
        let hiking = try context.fetch(
            FetchDescriptor<JSONTrip>(
                predicate: #Predicate { trip in
                    trip.tags.contains { $0.label == "hiking" }
                }))
        #expect(hiking.map(\.name) == ["Alps"])

        // Unsaved changes take part as with any store.
        context.insert(JSONStop(name: "Nara", nights: 7))
        #expect(try context.fetch(longest).map(\.name) == ["Zermatt", "Kyoto"])
        #expect(try context.fetchCount(FetchDescriptor<JSONStop>()) == 5)
    }

    @Test func enumerateReadsPagesInKeyOrderWithThePredicate() throws {
        defer { try? FileManager.default.removeItem(at: fileURL) }
        let container = try container()
        try fill(container)
        var descriptor = FetchDescriptor<JSONStop>(predicate: #Predicate { $0.nights >= 3 })
        descriptor.includePendingChanges = false
        // A page of one: each page starts after the last key of the one before.
        var names: [String] = []
        try ModelContext(container).enumerate(descriptor, batchSize: 1) { names.append($0.name) }
        #expect(Set(names) == ["Shinjuku", "Kyoto", "Zermatt"])
        #expect(names == (try ModelContext(container).fetch(descriptor).map(\.name)))
    }

    @Test func updatesAndCascadingDeletesReachTheFile() throws {
        defer { try? FileManager.default.removeItem(at: fileURL) }
        try fill(try container())
        do {
            let context = ModelContext(try container())
            let tokyo = try #require(
                try context.fetch(FetchDescriptor<JSONTrip>(predicate: #Predicate { $0.name == "Tokyo" })).first)
            tokyo.budget = 3000
            let alps = try #require(
                try context.fetch(FetchDescriptor<JSONTrip>(predicate: #Predicate { $0.name == "Alps" })).first)
            context.delete(alps)
            let moved = try #require(tokyo.stops.first { $0.name == "Kyoto" })
            moved.trip = nil
            try context.save()
        }
        let context = ModelContext(try container())
        let trips = try context.fetch(FetchDescriptor<JSONTrip>())
        #expect(trips.map(\.name) == ["Tokyo"])
        #expect(trips.first?.budget == 3000)
        #expect(Set(trips.first?.stops.map(\.name) ?? []) == ["Shinjuku", "Asakusa"])
        // Zermatt went with its trip; Kyoto stays, on its own.
        #expect(Set(try context.fetch(FetchDescriptor<JSONStop>()).map(\.name)) == ["Shinjuku", "Asakusa", "Kyoto"])
        let hiking = try #require(
            try context.fetch(FetchDescriptor<JSONTag>(predicate: #Predicate { $0.label == "hiking" })).first)
        #expect(hiking.trips.isEmpty)
    }

    @Test func aStoreThrowingMidSaveLosesNothing() throws {
        defer { try? FileManager.default.removeItem(at: fileURL) }
        let configuration = configuration()
        let container = try ModelContainer(for: schema, configurations: [configuration])
        try fill(container)
        let before = try Data(contentsOf: fileURL)

        let context = ModelContext(container)
        let tokyo = try #require(
            try context.fetch(FetchDescriptor<JSONTrip>(predicate: #Predicate { $0.name == "Tokyo" })).first)
        tokyo.budget = 1
        tokyo.stops.append(JSONStop(name: "Osaka", nights: 1))
        configuration.failsNextSave = true
        #expect {
            try context.save()
        } throws: { error in
            guard case StrataError.storeFailure(let operation, _) = error else { return false }
            return operation.contains("JSONStore")
        }
        // Nothing was written, and the context still holds every change.
        #expect(try Data(contentsOf: fileURL) == before)
        #expect(context.hasChanges)
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<JSONStop>()) == 4)

        try context.save()
        let reopened = ModelContext(try self.container())
        let saved = try #require(
            try reopened.fetch(FetchDescriptor<JSONTrip>(predicate: #Predicate { $0.name == "Tokyo" })).first)
        #expect(saved.budget == 1)
        #expect(saved.stops.count == 4)
        #expect(try reopened.fetchCount(FetchDescriptor<JSONStop>()) == 5)
    }

    @MainActor @Test func liveResultsFollowSavesToTheStore() async throws {
        defer { try? FileManager.default.removeItem(at: fileURL) }
        let container = try ModelContainer(
            for: JSONTrip.self, JSONStop.self, JSONTag.self, configurations: configuration())
        let observer = try ResultsObserver<JSONTrip, Never>(
            filterBy: #Predicate { $0.budget > 1000 }, sortBy: [SortDescriptor(\.name)],
            modelContext: container.mainContext)
        #expect(observer.results.isEmpty)
        try fill(container)
        for _ in 0..<200 where observer.results.count != 1 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(observer.results.map(\.name) == ["Tokyo"])
    }

    @Test func identifiersOfACustomStoreCompareAndCodeByTheirKey() throws {
        let key = UUID()
        let first = try PersistentIdentifier.identifier(for: "trips.json", entityName: "JSONTrip", primaryKey: key)
        let second = try PersistentIdentifier.identifier(for: "trips.json", entityName: "JSONTrip", primaryKey: key)
        let other = try PersistentIdentifier.identifier(for: "trips.json", entityName: "JSONTrip", primaryKey: UUID())
        #expect(first == second)
        #expect(first != other)
        #expect(first.entityName == "JSONTrip" && first.storeIdentifier == "trips.json" && !first.isTemporary)
        let decoded = try JSONDecoder().decode(PersistentIdentifier.self, from: try JSONEncoder().encode(first))
        #expect(decoded == first)
        #expect(Set([first, decoded]).count == 1)
        #expect(
            try PersistentIdentifier.identifier(for: "s", entityName: "E", primaryKey: 7)
                != PersistentIdentifier.identifier(for: "s", entityName: "E", primaryKey: "7"))
    }

    @Test func snapshotsCodeEveryStoredValueBack() throws {
        defer { try? FileManager.default.removeItem(at: fileURL) }
        let container = try container()
        let context = ModelContext(container)
        context.insert(JSONTrip(name: "Ünïcødé \u{1F5FA}", startDate: .distantPast, budget: .infinity))
        context.insert(JSONTrip(name: "", startDate: .distantFuture, budget: -0.25))
        try context.save()
        let reopened = ModelContext(try self.container())
        let trips = try reopened.fetch(FetchDescriptor<JSONTrip>(sortBy: [SortDescriptor(\.startDate)]))
        #expect(trips.map(\.name) == ["Ünïcødé \u{1F5FA}", ""])
        #expect(trips.map(\.budget) == [.infinity, -0.25])
        #expect(trips.map(\.startDate) == [.distantPast, .distantFuture])
    }
}
