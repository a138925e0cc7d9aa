import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

/// Opens `store` with `types`, inserting what `seed` makes and saving.
func seedStore(
    _ store: TemporaryStore, _ types: any PersistentModel.Type..., seed: (ModelContext) throws -> Void
) throws {
    let context = ModelContext(
        try ModelContainer(for: Schema(types), configurations: ModelConfiguration(url: store.url)))
    try seed(context)
    try context.save()
}

/// A context over `store` opened with `types` (migrating it).
func reopen(_ store: TemporaryStore, _ types: any PersistentModel.Type...) throws -> ModelContext {
    ModelContext(try ModelContainer(for: Schema(types), configurations: ModelConfiguration(url: store.url)))
}

/// The SQL of the store's table `name` as SQLite keeps it.
func tableSQL(_ store: TemporaryStore, _ name: String) throws -> String {
    let connection = try SQLiteConnection(location: .file(store.url.path), readOnly: true)
    let rows = try connection.query("SELECT sql FROM sqlite_master WHERE name = ?", [.text(name)])
    if case .text(let sql)? = rows.first?.first { return sql }
    return ""
}

/// The full schema description a store records in its metadata (`model`), if any.
func storedDescription(_ store: TemporaryStore) throws -> StoredValue? {
    let connection = try SQLiteConnection(location: .file(store.url.path), readOnly: true)
    return try connection.query("SELECT value FROM strata_metadata WHERE key = ?", [.text("model")]).first?.first
}

/// What only SQLite's migrations do: the backup file, and stores described by their fingerprint alone.
@Suite("Inferred lightweight migration: SQLite files")
struct SQLiteMigrationTests {
    private func seedTrips(_ store: TemporaryStore) throws {
        try seedStore(store, TripBase.Trip.self) { context in
            context.insert(TripBase.Trip(name: "Lisbon", days: 4, note: "tram 28"))
            context.insert(TripBase.Trip(name: "Oslo", days: 2))
        }
    }

    @Test("A migration writes a backup next to the store that the old models open; the option turns it off")
    func backup() throws {
        let store = TemporaryStore()
        try seedTrips(store)
        _ = try reopen(store, TripAddedOptional.Trip.self)
        let backups = store.backups()
        #expect(backups.count == 1)
        let backupURL = URL(fileURLWithPath: store.url.path + (backups.first ?? ""))
        let old = ModelContext(
            try ModelContainer(
                for: TripBase.Trip.self, configurations: ModelConfiguration(url: backupURL, allowsSave: false)))
        #expect(try old.fetchCount(FetchDescriptor<TripBase.Trip>()) == 2)
        var configuration = ModelConfiguration(url: store.url)
        configuration.backsUpStoreBeforeMigration = false
        _ = try ModelContainer(for: TripAddedDefault.Trip.self, configurations: configuration)
        #expect(store.backups() == backups)
    }

    @Test("A store written before the full schema description was recorded (fingerprint only) migrates too")
    func fingerprintOnlyStore() throws {
        let store = TemporaryStore()
        try seedStore(store, TripWithTags.Trip.self, TripWithTags.Tag.self) { context in
            let tag = TripWithTags.Tag(label: "coast")
            let trip = TripWithTags.Trip(name: "Lisbon")
            context.insert(trip)
            trip.tags.append(tag)
        }
        do {
            let connection = try SQLiteConnection(location: .file(store.url.path))
            try connection.run("DELETE FROM strata_metadata WHERE key = ?", [.text("model")])
        }
        // A read-only open of it with unchanged models writes nothing. A writable open records the store's full
        // schema description (a metadata upgrade, so later migrations compare against it) and leaves the rows as
        // they are. The file is compared once each container is gone: its connection closes and checkpoints its
        // write-ahead log into the file, so a write that stayed in the log would show here too.
        let before = store.bytes()
        do {
            let readOnly = try ModelContainer(
                for: TripWithTags.Trip.self, TripWithTags.Tag.self,
                configurations: ModelConfiguration(url: store.url, allowsSave: false))
            let trips = try ModelContext(readOnly).fetch(FetchDescriptor<TripWithTags.Trip>())
            #expect(trips.flatMap { $0.tags.map(\.label) } == ["coast"])
        }
        #expect(store.bytes() == before)
        #expect(try storedDescription(store) == nil)
        do {
            let trips = try reopen(store, TripWithTags.Trip.self, TripWithTags.Tag.self).fetch(
                FetchDescriptor<TripWithTags.Trip>())
            #expect(trips.map(\.name) == ["Lisbon"])
            #expect(trips.flatMap { $0.tags.map(\.label) } == ["coast"])
        }
        #expect(try storedDescription(store) != nil)
        let context = try reopen(store, TripWithRenamedTags.Trip.self, TripWithRenamedTags.Tag.self)
        let trip = try #require(try context.fetch(FetchDescriptor<TripWithRenamedTags.Trip>()).first)
        #expect(trip.labels.map(\.label) == ["coast"])
    }
}
