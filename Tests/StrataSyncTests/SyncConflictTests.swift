import Foundation
import Strata
import StrataPostgres
import StrataSync
import StrataTestSupport
import Synchronization
import Testing

/// A resolver that answers `answer` and remembers each conflict it was asked about.
final class RecordingResolver: Sendable {
    let answer: SyncConflict.Resolution?
    private let asked = Mutex<[SyncConflict]>([])

    init(_ answer: SyncConflict.Resolution? = nil) { self.answer = answer }

    var conflicts: [SyncConflict] { asked.withLock { $0 } }

    /// The resolver to configure: `answer`, or the conflict's default when `answer` is `nil`.
    var resolve: @Sendable (SyncConflict) -> SyncConflict.Resolution {
        { conflict in
            self.asked.withLock { $0.append(conflict) }
            return self.answer ?? conflict.defaultResolution
        }
    }
}

@Suite(
    "StrataSync: a change here meeting a change elsewhere is settled by the resolver, by default the same way",
    .needsPostgreSQL)
struct SyncConflictTests {
    /// A phone (with `resolver`) and a laptop sharing one note, `Milk:5:oat`, fetched by both.
    private func devices(
        _ scenario: SyncScenario, resolver: RecordingResolver
    ) async throws -> (phone: ModelContainer, laptop: ModelContainer, phoneSync: SyncEngine, laptopSync: SyncEngine) {
        let phone = try scenario.device("phone")
        let laptop = try scenario.device("laptop")
        let phoneSync = try scenario.engine(phone, resolver: resolver.resolve)
        let laptopSync = try scenario.engine(laptop)
        let context = ModelContext(phone)
        context.insert(SyncNote(title: "Milk", count: 5, detail: "oat"))
        try context.save()
        try await phoneSync.sendChanges()
        try await phoneSync.fetchChanges()
        try await laptopSync.fetchChanges()
        return (phone, laptop, phoneSync, laptopSync)
    }

    /// Changes the only note of `container` and saves.
    private func change(_ container: ModelContainer, _ body: (SyncNote, ModelContext) -> Void) throws {
        let context = ModelContext(container)
        let note = try #require(try context.fetch(FetchDescriptor<SyncNote>()).first)
        body(note, context)
        try context.save()
    }

    private func kinds(_ resolver: RecordingResolver) -> [SyncConflict.Kind] { resolver.conflicts.map(\.kind) }

    @Test(arguments: [SyncConflict.Resolution?.none, .keepLocal])
    func aChangeToARowDeletedOnTheHubIsDroppedOrBringsTheWholeRowBack(answer: SyncConflict.Resolution?) async throws {
        let scenario = try SyncScenario()
        let resolver = RecordingResolver(answer)
        let (phone, laptop, phoneSync, laptopSync) = try await devices(scenario, resolver: resolver)
        try change(laptop) { note, context in context.delete(note) }
        try await laptopSync.sendChanges()
        try change(phone) { note, _ in note.count = 6 }
        try await phoneSync.sendChanges()
        try await phoneSync.fetchChanges()
        try await laptopSync.fetchChanges()

        #expect(kinds(resolver).contains(.changedHereDeletedOnHub(properties: ["count"])))
        // Never a row of the changed property alone: the delete wins, or the row comes back whole.
        let expected = answer == .keepLocal ? ["Milk:6:oat"] : []
        #expect(try SyncScenario.notes(scenario.server()) == expected)
        #expect(try SyncScenario.notes(phone) == expected)
        #expect(try SyncScenario.notes(laptop) == expected)
    }

    @Test(arguments: [SyncConflict.Resolution?.none, .keepHub])
    func aPropertyBothChangedIsSettledWhenTheDeviceFetches(answer: SyncConflict.Resolution?) async throws {
        let scenario = try SyncScenario()
        let resolver = RecordingResolver(answer)
        let (phone, laptop, phoneSync, laptopSync) = try await devices(scenario, resolver: resolver)
        try change(laptop) { note, _ in note.count = 7 }
        try await laptopSync.sendChanges()
        try change(phone) { note, _ in
            note.count = 8
            note.title = "Oat milk"
        }
        try await phoneSync.fetchChanges()
        try await phoneSync.sendChanges()
        try await laptopSync.fetchChanges()

        #expect(kinds(resolver) == [.bothChanged(properties: ["count"])])
        let expected = answer == .keepHub ? ["Oat milk:7:oat"] : ["Oat milk:8:oat"]
        #expect(try SyncScenario.notes(phone) == expected)
        #expect(try SyncScenario.notes(laptop) == expected)
        #expect(try SyncScenario.notes(scenario.server()) == expected)
    }

    @Test(arguments: [SyncConflict.Resolution?.none, .keepHub])
    func aPropertyBothChangedIsSettledWhenTheDeviceSendsFirst(answer: SyncConflict.Resolution?) async throws {
        let scenario = try SyncScenario()
        let resolver = RecordingResolver(answer)
        let (phone, laptop, phoneSync, laptopSync) = try await devices(scenario, resolver: resolver)
        try change(laptop) { note, _ in
            note.count = 7
            note.detail = "soy"
        }
        try await laptopSync.sendChanges()
        try change(phone) { note, _ in
            note.count = 8
            note.title = "Oat milk"
        }
        try await phoneSync.sendChanges()
        try await phoneSync.fetchChanges()
        try await laptopSync.fetchChanges()

        #expect(kinds(resolver) == [.bothChanged(properties: ["count"])])
        // Properties changed on one side only merge: the title from here, the detail from the hub.
        let expected = answer == .keepHub ? ["Oat milk:7:soy"] : ["Oat milk:8:soy"]
        #expect(try SyncScenario.notes(phone) == expected)
        #expect(try SyncScenario.notes(laptop) == expected)
        #expect(try SyncScenario.notes(scenario.server()) == expected)
    }

    @Test(arguments: [SyncConflict.Resolution?.none, .keepHub])
    func aRowDeletedHereAndChangedOnTheHubStaysDeletedOrComesBack(answer: SyncConflict.Resolution?) async throws {
        let scenario = try SyncScenario()
        let resolver = RecordingResolver(answer)
        let (phone, laptop, phoneSync, laptopSync) = try await devices(scenario, resolver: resolver)
        try change(laptop) { note, _ in note.detail = "soy" }
        try await laptopSync.sendChanges()
        try change(phone) { note, context in context.delete(note) }
        try await phoneSync.fetchChanges()
        try await phoneSync.sendChanges()
        try await phoneSync.fetchChanges()
        try await laptopSync.fetchChanges()

        #expect(kinds(resolver).first == .deletedHereChangedOnHub(properties: ["detail"]))
        let expected = answer == .keepHub ? ["Milk:5:soy"] : []
        #expect(try SyncScenario.notes(phone) == expected)
        #expect(try SyncScenario.notes(laptop) == expected)
        #expect(try SyncScenario.notes(scenario.server()) == expected)
    }

    @Test func changesToDifferentPropertiesAreNoConflict() async throws {
        let scenario = try SyncScenario()
        let resolver = RecordingResolver()
        let (phone, laptop, phoneSync, laptopSync) = try await devices(scenario, resolver: resolver)
        try change(laptop) { note, _ in note.detail = "soy" }
        try await laptopSync.sendChanges()
        try change(phone) { note, _ in note.count = 9 }
        try await phoneSync.sendChanges()
        try await phoneSync.fetchChanges()
        try await laptopSync.fetchChanges()

        #expect(resolver.conflicts.isEmpty)
        #expect(try SyncScenario.notes(phone) == ["Milk:9:soy"])
        #expect(try SyncScenario.notes(laptop) == ["Milk:9:soy"])
        #expect(try SyncScenario.notes(scenario.server()) == ["Milk:9:soy"])
    }
}
