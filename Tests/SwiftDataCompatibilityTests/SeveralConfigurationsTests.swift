import Foundation
import SwiftData
import Testing

@Model final class RoutedTrip {
    @Attribute(.unique) var name: String
    @Relationship(deleteRule: .cascade, inverse: \RoutedStop.trip) var stops: [RoutedStop] = []
    init(name: String) { self.name = name }
}

@Model final class RoutedStop {
    var place: String
    var trip: RoutedTrip?
    init(place: String) { self.place = place }
}

@Model final class RoutedThumbnail {
    @Attribute(.unique) var key: String
    var bytes: Int
    init(key: String, bytes: Int) {
        self.key = key
        self.bytes = bytes
    }
}

@Model final class RoutedSeedCountry {
    var code: String
    init(code: String) { self.code = code }
}

/// A model whose relationship reaches a model another configuration stores.
@Model final class RoutedPhoto {
    var caption: String
    var trip: RoutedTrip?
    init(caption: String) { self.caption = caption }
}

enum RoutedSchemaV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [RoutedThumbnail.self, RoutedSeedCountry.self] }
}

enum RoutedMigrationPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [RoutedSchemaV1.self] }
    static var stages: [MigrationStage] { [] }
}

/// Several `ModelConfiguration`s in one container, as SwiftData apps write them: each configuration's schema names
/// the models its store holds, one container and one context span the stores, and a save touching two stores
/// commits in both or neither. The main store is each kind of store; the other stores are SQLite files.
@Suite struct SeveralConfigurationsTests {
    private let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("several-configurations-\(UUID().uuidString)")

    private func file(_ name: String) -> URL { directory.appendingPathComponent("\(name).store") }

    /// The main store of `kind` holding trips and stops, named `"trips"`.
    private func tripsConfiguration(_ store: CompatibilityStore) throws -> any DataStoreConfiguration {
        var configuration = try store.configuration()
        configuration.schema = Schema([RoutedTrip.self, RoutedStop.self])
        return configuration
    }

    private var fullSchema: Schema { Schema([RoutedTrip.self, RoutedStop.self, RoutedThumbnail.self]) }

    private func cacheConfiguration(allowsSave: Bool = true) -> ModelConfiguration {
        ModelConfiguration("cache", schema: Schema([RoutedThumbnail.self]), url: file("cache"), allowsSave: allowsSave)
    }

    @Test(arguments: StoreKind.all) func eachModelIsStoredInItsConfigurationsStore(_ kind: StoreKind) throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = CompatibilityStore(kind)
        let container = try ModelContainer(
            for: fullSchema, configurations: [try tripsConfiguration(store), cacheConfiguration()])
        let context = ModelContext(container)
        let trip = RoutedTrip(name: "Lisbon")
        trip.stops = [RoutedStop(place: "Alfama"), RoutedStop(place: "Belém")]
        context.insert(trip)
        let thumbnail = RoutedThumbnail(key: "lisbon.jpg", bytes: 2048)
        context.insert(thumbnail)
        try context.save()
        #expect(trip.persistentModelID.storeIdentifier != thumbnail.persistentModelID.storeIdentifier)

        let reader = ModelContext(container)
        #expect(try reader.fetch(FetchDescriptor<RoutedTrip>()).first?.stops.count == 2)
        let thumbnails = try reader.fetch(
            FetchDescriptor<RoutedThumbnail>(predicate: #Predicate { $0.bytes > 1000 }))
        #expect(thumbnails.map(\.key) == ["lisbon.jpg"])
        #expect(reader.model(for: thumbnail.persistentModelID) is RoutedThumbnail)
        #expect(reader.registeredModel(for: thumbnail.persistentModelID) as RoutedThumbnail? != nil)

        // Each store on its own holds exactly its configuration's models.
        let cacheAlone = try ModelContainer(for: RoutedThumbnail.self, configurations: cacheConfiguration())
        #expect(try ModelContext(cacheAlone).fetch(FetchDescriptor<RoutedThumbnail>()).map(\.bytes) == [2048])
        let tripsAlone = try store.container(RoutedTrip.self, RoutedStop.self)
        #expect(try ModelContext(tripsAlone).fetchCount(FetchDescriptor<RoutedStop>()) == 2)

        // Changes and deletes go to the right store too.
        thumbnail.bytes = 4096
        context.delete(trip)
        try context.save()
        let again = ModelContext(container)
        #expect(try again.fetch(FetchDescriptor<RoutedThumbnail>()).map(\.bytes) == [4096])
        #expect(try again.fetchCount(FetchDescriptor<RoutedStop>()) == 0)
        try again.delete(model: RoutedThumbnail.self)
        try again.save()
        #expect(try ModelContext(cacheAlone).fetchCount(FetchDescriptor<RoutedThumbnail>()) == 0)
    }

    @Test(arguments: StoreKind.all) func aSaveFailingInOneStoreWritesNothingInEither(_ kind: StoreKind) throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = CompatibilityStore(kind)
        let container = try ModelContainer(
            for: fullSchema, configurations: [try tripsConfiguration(store), cacheConfiguration()])
        let setup = ModelContext(container)
        setup.insert(RoutedTrip(name: "Porto"))
        setup.insert(RoutedThumbnail(key: "porto.jpg", bytes: 1))
        try setup.save()

        // The cache store refuses a duplicate: the trip saved alongside must not be written either.
        let context = ModelContext(container)
        context.mergePolicy = .error
        context.insert(RoutedTrip(name: "Faro"))
        context.insert(RoutedThumbnail(key: "porto.jpg", bytes: 2))
        #expect(throws: SwiftDataError.self) { try context.save() }
        // And the other way round: the trips store refuses, the new thumbnail isn't written.
        let other = ModelContext(container)
        other.mergePolicy = .error
        other.insert(RoutedTrip(name: "Porto"))
        other.insert(RoutedThumbnail(key: "faro.jpg", bytes: 3))
        #expect(throws: SwiftDataError.self) { try other.save() }

        let reader = ModelContext(container)
        #expect(try reader.fetch(FetchDescriptor<RoutedTrip>()).map(\.name) == ["Porto"])
        #expect(try reader.fetch(FetchDescriptor<RoutedThumbnail>()).map(\.key) == ["porto.jpg"])
    }

    @Test func aReadOnlySeedStoreIsReadAndRefusesChangesWithoutWritingTheRest() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let seedURL = file("seed")
        do {
            let builder = try ModelContainer(
                for: RoutedSeedCountry.self, configurations: ModelConfiguration(url: seedURL))
            let context = ModelContext(builder)
            for code in ["PT", "BG", "BR"] { context.insert(RoutedSeedCountry(code: code)) }
            try context.save()
        }
        let seed = ModelConfiguration("seed", schema: Schema([RoutedSeedCountry.self]), url: seedURL, allowsSave: false)
        let main = ModelConfiguration("main", url: file("main"))
        let container = try ModelContainer(
            for: RoutedTrip.self, RoutedStop.self, RoutedSeedCountry.self, configurations: main, seed)
        let context = ModelContext(container)
        let countries = try context.fetch(FetchDescriptor<RoutedSeedCountry>(sortBy: [SortDescriptor(\.code)]))
        #expect(countries.map(\.code) == ["BG", "BR", "PT"])

        context.insert(RoutedTrip(name: "Sofia"))
        countries[0].code = "XX"
        let error = #expect(throws: StrataError.self) { try context.save() }
        if case .readOnlyContainer? = error {
        } else {
            Issue.record("expected readOnlyContainer, got \(String(describing: error))")
        }
        #expect("\(error.map { "\($0)" } ?? "")".contains("changes to RoutedSeedCountry, which configuration 'seed'"))
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<RoutedTrip>()) == 0)

        // Without the seed change the rest saves; erasing leaves the seed store as it ships.
        context.rollback()
        context.insert(RoutedTrip(name: "Sofia"))
        try context.save()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<RoutedTrip>()) == 1)
        try container.erase()
        let afterErase = ModelContext(container)
        #expect(try afterErase.fetchCount(FetchDescriptor<RoutedTrip>()) == 0)
        #expect(try afterErase.fetchCount(FetchDescriptor<RoutedSeedCountry>()) == 3)
    }

    @Test func aReadOnlyConfigurationWhoseFileIsMissingSaysSo() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = ModelConfiguration(
            "library", schema: Schema([RoutedSeedCountry.self]), url: file("library"), allowsSave: false)
        let error = #expect(throws: SwiftDataError.self) {
            try ModelContainer(
                for: RoutedSeedCountry.self, RoutedThumbnail.self, configurations: cacheConfiguration(), missing)
        }?.underlyingError
        #expect("\(error.map { "\($0)" } ?? "")".contains("there is no store file, and configuration 'library'"))
        #expect(!FileManager.default.fileExists(atPath: file("library").path))
    }

    @Test func configurationsWithoutASchemaHoldTheModelsNoOtherConfigurationNames() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        // The shape of a forum question: one configuration per model, one of them in memory.
        let container = try ModelContainer(
            for: RoutedSeedCountry.self, RoutedThumbnail.self,
            configurations: ModelConfiguration(url: file("main")),
            ModelConfiguration(for: RoutedThumbnail.self, isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        context.insert(RoutedSeedCountry(code: "PT"))
        context.insert(RoutedThumbnail(key: "a", bytes: 1))
        try context.save()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<RoutedThumbnail>()) == 1)
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<RoutedSeedCountry>()) == 1)
        #expect(container.configurations.count == 2)

        // Two configurations naming one file share its store.
        let shared = file("shared")
        let together = try ModelContainer(
            for: RoutedSeedCountry.self, RoutedThumbnail.self,
            configurations: ModelConfiguration("a", schema: Schema([RoutedSeedCountry.self]), url: shared),
            ModelConfiguration("b", schema: Schema([RoutedThumbnail.self]), url: shared))
        let sharedContext = ModelContext(together)
        sharedContext.insert(RoutedSeedCountry(code: "BG"))
        sharedContext.insert(RoutedThumbnail(key: "b", bytes: 2))
        try sharedContext.save()
        let alone = try ModelContainer(
            for: RoutedSeedCountry.self, RoutedThumbnail.self, configurations: ModelConfiguration(url: shared))
        #expect(try ModelContext(alone).fetchCount(FetchDescriptor<RoutedThumbnail>()) == 1)
    }

    @Test func configurationsThatCantShareTheModelsAreRefusedWithTheReason() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        func reason(_ make: () throws -> ModelContainer) -> String {
            do {
                _ = try make()
                return "opened"
            } catch {
                return "\(error)"
            }
        }
        let twice = reason {
            try ModelContainer(
                for: RoutedThumbnail.self,
                configurations: ModelConfiguration("a", schema: Schema([RoutedThumbnail.self]), url: file("a")),
                ModelConfiguration("b", schema: Schema([RoutedThumbnail.self]), url: file("b")))
        }
        #expect(twice.contains("RoutedThumbnail") && twice.contains("'a'") && twice.contains("one store"))

        let unclaimed = reason {
            try ModelContainer(
                for: RoutedThumbnail.self, RoutedSeedCountry.self,
                configurations: ModelConfiguration("a", schema: Schema([RoutedThumbnail.self]), url: file("a")),
                ModelConfiguration("c", schema: Schema([RoutedThumbnail.self]), url: file("a")))
        }
        #expect(unclaimed.contains("RoutedSeedCountry") && unclaimed.contains("no configuration"))

        // Photos take the rest, trips are named: a photo's trip would be in another store.
        let across = reason {
            try ModelContainer(
                for: RoutedTrip.self, RoutedStop.self, RoutedPhoto.self,
                configurations: ModelConfiguration("trips", schema: Schema([RoutedTrip.self]), url: file("trips")),
                ModelConfiguration("photos", url: file("photos")))
        }
        #expect(across.contains("RoutedPhoto.trip") && across.contains("can't cross stores"), "\(across)")
        // A schema holds the models its models reach: naming photos names their trips too.
        let reached = reason {
            try ModelContainer(
                for: RoutedTrip.self, RoutedStop.self, RoutedPhoto.self,
                configurations: ModelConfiguration("trips", schema: Schema([RoutedTrip.self]), url: file("trips")),
                ModelConfiguration("photos", schema: Schema([RoutedPhoto.self]), url: file("photos")))
        }
        #expect(reached.contains("RoutedTrip") && reached.contains("relationships reach"), "\(reached)")

        let disagreeing = reason {
            try ModelContainer(
                for: RoutedThumbnail.self, RoutedSeedCountry.self,
                configurations: ModelConfiguration("a", schema: Schema([RoutedThumbnail.self]), url: file("same")),
                ModelConfiguration(
                    "b", schema: Schema([RoutedSeedCountry.self]), url: file("same"), allowsSave: false))
        }
        #expect(disagreeing.contains("allowsSave"))

        let twoStores: [any DataStoreConfiguration] = [
            ModelConfiguration("a", schema: Schema([RoutedThumbnail.self]), url: file("a")),
            ModelConfiguration("b", url: file("b")),
        ]
        let planned = reason {
            try ModelContainer(
                for: Schema([RoutedThumbnail.self, RoutedSeedCountry.self]), migrationPlan: RoutedMigrationPlan.self,
                configurations: twoStores)
        }
        #expect(planned.contains("migration plan") && planned.contains("'a', 'b'"), "\(planned)")
        // The dry run plans each store's own models, and refuses the plan as the open does.
        #expect(
            try ModelContainer.migrationSteps(
                for: Schema([RoutedThumbnail.self, RoutedSeedCountry.self]), configurations: twoStores
            ).isEmpty)
        #expect(throws: SwiftDataError.self) {
            try ModelContainer.migrationSteps(
                for: Schema([RoutedThumbnail.self, RoutedSeedCountry.self]), migrationPlan: RoutedMigrationPlan.self,
                configurations: twoStores)
        }
        #expect(!FileManager.default.fileExists(atPath: file("photos").path))
    }

    @MainActor @Test func liveResultsSeeSavesInEveryStoreAndHistoryNamesTheWayToReadIt() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let container = try ModelContainer(
            for: fullSchema,
            configurations: ModelConfiguration("trips", url: file("trips")), cacheConfiguration())
        let observer = try ResultsObserver<RoutedThumbnail, Never>(modelContext: container.mainContext)
        let writer = ModelContext(container)
        writer.insert(RoutedThumbnail(key: "x", bytes: 1))
        writer.insert(RoutedTrip(name: "Évora"))
        try writer.save()
        for _ in 0..<200 where observer.results.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        #expect(observer.results.map(\.key) == ["x"])

        let error = #expect(throws: SwiftDataError.invalidTransactionFetchRequest) {
            try ModelContext(container).fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        }
        #expect("\(error.map { "\($0)" } ?? "")".contains("configuration alone"))
    }

    @Test func containersListingTheStoresInEitherOrderSaveToBothAtOnce() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let trips = ModelConfiguration("trips", schema: Schema([RoutedTrip.self, RoutedStop.self]), url: file("trips"))
        let cache = cacheConfiguration()
        // Two containers (an app and its extension) over the same two files, their configurations in either order.
        let first = try ModelContainer(for: fullSchema, configurations: trips, cache)
        let second = try ModelContainer(for: fullSchema, configurations: cache, trips)
        func saves(_ container: ModelContainer, _ name: String) -> Task<Void, any Error> {
            Task.detached {
                for round in 0..<25 {
                    let context = ModelContext(container)
                    context.insert(RoutedTrip(name: "\(name) \(round)"))
                    context.insert(RoutedThumbnail(key: "\(name) \(round)", bytes: round))
                    try context.save()
                }
            }
        }
        let (one, two) = (saves(first, "first"), saves(second, "second"))
        try await one.value
        try await two.value
        let reader = ModelContext(first)
        #expect(try reader.fetchCount(FetchDescriptor<RoutedTrip>()) == 50)
        #expect(try reader.fetchCount(FetchDescriptor<RoutedThumbnail>()) == 50)
    }

    @Test func aCustomStoreThatFailsRollsBackTheOtherStoresShare() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let json = JSONStoreConfiguration(
            name: "json", schema: Schema([RoutedThumbnail.self]), fileURL: directory.appendingPathComponent("t.json"))
        let container = try ModelContainer(
            for: Schema([RoutedThumbnail.self, RoutedSeedCountry.self]), migrationPlan: nil,
            configurations: [ModelConfiguration("main", url: file("main")), json])
        let context = ModelContext(container)
        context.insert(RoutedSeedCountry(code: "PT"))
        context.insert(RoutedThumbnail(key: "a", bytes: 1))
        json.failsNextSave = true
        #expect(throws: (any Error).self) { try context.save() }
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<RoutedSeedCountry>()) == 0)

        try context.save()
        let reader = ModelContext(container)
        #expect(try reader.fetch(FetchDescriptor<RoutedSeedCountry>()).map(\.code) == ["PT"])
        #expect(try reader.fetch(FetchDescriptor<RoutedThumbnail>()).map(\.key) == ["a"])
    }
}
