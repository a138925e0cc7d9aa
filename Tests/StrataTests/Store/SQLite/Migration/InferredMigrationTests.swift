import Foundation
import Testing
@testable import Strata

/// Opens `store` with `types`, inserting what `seed` makes and saving.
func seedStore(_ store: TemporaryStore, _ types: any PersistentModel.Type..., seed: (ModelContext) throws -> Void) throws {
    let context = ModelContext(try ModelContainer(for: Schema(types), configurations: ModelConfiguration(url: store.url)))
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

@Suite("Inferred lightweight migration")
struct InferredMigrationTests {
    private func seedTrips(_ store: TemporaryStore) throws {
        try seedStore(store, TripBase.Trip.self) { context in
            context.insert(TripBase.Trip(name: "Lisbon", days: 4, note: "tram 28"))
            context.insert(TripBase.Trip(name: "Oslo", days: 2))
        }
    }

    @Test("An added optional attribute is added with ALTER TABLE (no rebuild) and reads nil")
    func addedOptional() throws {
        let store = TemporaryStore()
        try seedTrips(store)
        let context = try reopen(store, TripAddedOptional.Trip.self)
        let trips = try context.fetch(FetchDescriptor<TripAddedOptional.Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(trips.map(\.name) == ["Lisbon", "Oslo"])
        #expect(trips.map(\.budget) == [nil, nil])
        trips[0].budget = 120.5
        try context.save()
        // ADD COLUMN appends to SQLite's own DDL text; a rebuild would have written the models' definition.
        #expect(try tableSQL(store, "Trip").contains("\"budget\" REAL"))
        #expect(try tableSQL(store, "Trip").hasSuffix("\"budget\" REAL)"))
    }

    @Test("An added attribute with an initial value gives existing rows that value")
    func addedDefault() throws {
        let store = TemporaryStore()
        try seedTrips(store)
        let context = try reopen(store, TripAddedDefault.Trip.self)
        let trips = try context.fetch(FetchDescriptor<TripAddedDefault.Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(trips.map(\.rating) == [3, 3])
        #expect(trips.map(\.currency) == ["EUR", "EUR"])
        #expect(trips.map(\.note) == ["tram 28", nil])
        #expect(try tableSQL(store, "Trip").contains("DEFAULT 3"))
    }

    @Test("An added non-optional attribute without a value is refused over stored rows; the file stays byte-for-byte")
    func addedRequiredIsRefused() throws {
        let store = TemporaryStore()
        try seedTrips(store)
        let before = store.bytes()
        let error = #expect(throws: StrataError.self) { try reopen(store, TripAddedRequired.Trip.self) }
        guard case .migrationRefused(_, let entity, let property, let reason)? = error else {
            Issue.record("expected migrationRefused, got \(String(describing: error))")
            return
        }
        #expect(entity == "Trip" && property == "country")
        #expect(reason.contains("String") && reason.contains("MigrationStage.custom"))
        #expect(store.bytes() == before)
        #expect(store.backups().isEmpty)
        #expect(try reopen(store, TripBase.Trip.self).fetchCount(FetchDescriptor<TripBase.Trip>()) == 2)
    }

    @Test("An added non-optional attribute without a value is fine while the table is empty")
    func addedRequiredOverEmptyTable() throws {
        let store = TemporaryStore()
        try seedStore(store, TripBase.Trip.self) { _ in }
        let context = try reopen(store, TripAddedRequired.Trip.self)
        context.insert(TripAddedRequired.Trip(name: "Rome", country: "Italy"))
        try context.save()
        #expect(try context.fetch(FetchDescriptor<TripAddedRequired.Trip>()).map(\.country) == ["Italy"])
    }

    @Test("A removed attribute drops its column and keeps every row")
    func removedAttribute() throws {
        let store = TemporaryStore()
        try seedTrips(store)
        let context = try reopen(store, TripRemovedNote.Trip.self)
        #expect(try context.fetch(FetchDescriptor<TripRemovedNote.Trip>(sortBy: [SortDescriptor(\.name)])).map(\.days) == [4, 2])
        #expect(try !tableSQL(store, "Trip").contains("note"))
    }

    @Test("@Attribute(originalName:) carries the values over to the renamed attribute")
    func renamedAttribute() throws {
        let store = TemporaryStore()
        try seedTrips(store)
        let context = try reopen(store, TripRenamed.Trip.self)
        #expect(try context.fetch(FetchDescriptor<TripRenamed.Trip>(sortBy: [SortDescriptor(\.title)])).map(\.title) == ["Lisbon", "Oslo"])
    }

    @Test("Widening Int32 to Int keeps the values and needs no new table")
    func widenedInteger() throws {
        let store = TemporaryStore()
        try seedTrips(store)
        let tableBefore = try tableSQL(store, "Trip")
        let context = try reopen(store, TripWidened.Trip.self)
        #expect(try context.fetch(FetchDescriptor<TripWidened.Trip>(sortBy: [SortDescriptor(\.name)])).map(\.days) == [4, 2])
        #expect(try tableSQL(store, "Trip") == tableBefore)
    }

    @Test("Optional to non-optional with an initial value: rows holding nil get the value")
    func optionalToRequiredWithDefault() throws {
        let store = TemporaryStore()
        try seedTrips(store)
        let context = try reopen(store, TripNoteRequired.Trip.self)
        #expect(try context.fetch(FetchDescriptor<TripNoteRequired.Trip>(sortBy: [SortDescriptor(\.name)])).map(\.note) == ["tram 28", "none"])
    }

    @Test("Optional to non-optional without an initial value is refused when a row holds nil, naming the shapes")
    func optionalToRequiredWithoutDefault() throws {
        let store = TemporaryStore()
        try seedTrips(store)
        let before = store.bytes()
        let error = #expect(throws: StrataError.self) { try reopen(store, TripNoteRequiredWithoutDefault.Trip.self) }
        #expect(error?.caseName == "migrationRefused")
        #expect(error?.description.contains("Trip.note") == true)
        #expect(error?.description.contains("String?") == true)
        #expect(store.bytes() == before)
    }

    @Test("Non-optional to optional keeps the values")
    func requiredToOptional() throws {
        let store = TemporaryStore()
        try seedTrips(store)
        let context = try reopen(store, TripNameOptional.Trip.self)
        let trip = TripNameOptional.Trip(name: "x")
        trip.name = nil
        context.insert(trip)
        try context.save()
        #expect(try context.fetch(FetchDescriptor<TripNameOptional.Trip>()).compactMap(\.name).sorted() == ["Lisbon", "Oslo"])
    }

    @Test("A type change (Int32 to String) is refused naming entity, property, both shapes and the stage; the file is unchanged")
    func typeChangeIsRefused() throws {
        let store = TemporaryStore()
        try seedTrips(store)
        let before = store.bytes()
        let error = #expect(throws: StrataError.self) { try reopen(store, TripDaysAsText.Trip.self) }
        let text = error?.description ?? ""
        #expect(text.contains("Trip.days"))
        #expect(text.contains("stored as Int32"))
        #expect(text.contains("declares String"))
        #expect(text.contains("MigrationStage.custom"))
        #expect(store.bytes() == before)
    }

    @Test("A uniqueness constraint over distinct values is added and enforced")
    func addedUnique() throws {
        let store = TemporaryStore()
        try seedTrips(store)
        let context = try reopen(store, TripUnique.Trip.self)
        #expect(try context.fetchCount(FetchDescriptor<TripUnique.Trip>()) == 2)
        #expect(try tableSQL(store, "Trip").contains("UNIQUE (\"name\")"))
    }

    @Test("A uniqueness constraint over duplicates is refused naming entity, property and the duplicated value; the file is unchanged")
    func addedUniqueOverDuplicates() throws {
        let store = TemporaryStore()
        try seedStore(store, TripBase.Trip.self) { context in
            context.insert(TripBase.Trip(name: "Paris", days: 1))
            context.insert(TripBase.Trip(name: "Paris", days: 3))
            context.insert(TripBase.Trip(name: "Rome", days: 3))
        }
        let before = store.bytes()
        let error = #expect(throws: StrataError.self) { try reopen(store, TripUnique.Trip.self) }
        let text = error?.description ?? ""
        #expect(text.contains("Trip.name"))
        #expect(text.contains("\"Paris\""))
        #expect(text.contains("willMigrate"))
        #expect(store.bytes() == before)
        #expect(store.backups().isEmpty)
    }

    @Test("An added #Index is created, a removed one dropped")
    func indexes() throws {
        let store = TemporaryStore()
        try seedTrips(store)
        _ = try reopen(store, TripIndexed.Trip.self)
        #expect(try tableSQL(store, "Trip_name_days_index").contains("CREATE INDEX"))
        _ = try reopen(store, TripBase.Trip.self)
        #expect(try tableSQL(store, "Trip_name_days_index").isEmpty)
        #expect(try reopen(store, TripBase.Trip.self).fetchCount(FetchDescriptor<TripBase.Trip>()) == 2)
    }

    @Test("An added entity and relationship: the foreign key is added, rows are kept, relationships work")
    func addedEntityAndRelationship() throws {
        let store = TemporaryStore()
        try seedTrips(store)
        let context = try reopen(store, TripWithStops.Trip.self, TripWithStops.Stop.self)
        let lisbon = try #require(try context.fetch(FetchDescriptor<TripWithStops.Trip>(predicate: #Predicate { $0.name == "Lisbon" })).first)
        let stop = TripWithStops.Stop(place: "Belém")
        context.insert(stop)
        stop.trip = lisbon
        try context.save()
        let again = try reopen(store, TripWithStops.Trip.self, TripWithStops.Stop.self)
        let trip = try #require(try again.fetch(FetchDescriptor<TripWithStops.Trip>(predicate: #Predicate { $0.name == "Lisbon" })).first)
        #expect(trip.stops.map(\.place) == ["Belém"])
    }

    @Test("A changed delete rule rewrites the foreign key's action and keeps the references")
    func changedDeleteRule() throws {
        let store = TemporaryStore()
        try seedStore(store, TripWithStops.Trip.self, TripWithStops.Stop.self) { context in
            let trip = TripWithStops.Trip(name: "Kyoto")
            context.insert(trip)
            let stop = TripWithStops.Stop(place: "Fushimi")
            context.insert(stop)
            stop.trip = trip
        }
        #expect(try tableSQL(store, "Stop").contains("ON DELETE CASCADE"))
        let context = try reopen(store, TripWithNullifiedStops.Trip.self, TripWithNullifiedStops.Stop.self)
        #expect(try tableSQL(store, "Stop").contains("ON DELETE SET NULL"))
        let stop = try #require(try context.fetch(FetchDescriptor<TripWithNullifiedStops.Stop>()).first)
        #expect(stop.trip?.name == "Kyoto")
    }

    @Test("A removed relationship and entity: the foreign key column is dropped; an inferred migration keeps the entity's table")
    func removedRelationshipKeepsEntityTable() throws {
        let store = TemporaryStore()
        try seedStore(store, TripWithStops.Trip.self, TripWithStops.Stop.self) { context in
            let trip = TripWithStops.Trip(name: "Kyoto")
            context.insert(trip)
            let stop = TripWithStops.Stop(place: "Fushimi")
            context.insert(stop)
            stop.trip = trip
        }
        let context = try reopen(store, TripBase.Trip.self)
        #expect(try context.fetch(FetchDescriptor<TripBase.Trip>()).map(\.name) == ["Kyoto"])
        // Another container may still use Stop, so its table stays.
        #expect(try !tableSQL(store, "Stop").isEmpty)
        let both = try reopen(store, TripWithStops.Trip.self, TripWithStops.Stop.self)
        #expect(try both.fetch(FetchDescriptor<TripWithStops.Stop>()).map(\.place) == ["Fushimi"])
    }

    @Test("A many-to-many relationship is added, then renamed with originalName: its rows are carried over; removing it drops the join table")
    func joinTables() throws {
        let store = TemporaryStore()
        try seedTrips(store)
        do {
            let context = try reopen(store, TripWithTags.Trip.self, TripWithTags.Tag.self)
            let tag = TripWithTags.Tag(label: "coast")
            context.insert(tag)
            for trip in try context.fetch(FetchDescriptor<TripWithTags.Trip>()) { trip.tags.append(tag) }
            try context.save()
        }
        let context = try reopen(store, TripWithRenamedTags.Trip.self, TripWithRenamedTags.Tag.self)
        let trips = try context.fetch(FetchDescriptor<TripWithRenamedTags.Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(trips.map { $0.labels.map(\.label) } == [["coast"], ["coast"]])
        #expect(try tableSQL(store, "Z_Tag_trips__Trip_tags").isEmpty)
        _ = try reopen(store, TripBase.Trip.self, TripTagsOnly.Tag.self)
        #expect(try tableSQL(store, "Z_Tag_trips__Trip_labels").isEmpty)
        #expect(try reopen(store, TripTagsOnly.Tag.self).fetch(FetchDescriptor<TripTagsOnly.Tag>()).map(\.label) == ["coast"])
    }

    @Test("Two containers with different model sets share one store: each adds its entity, neither drops the other's")
    func differentModelSets() throws {
        let store = TemporaryStore()
        try seedTrips(store)
        let tags = try reopen(store, TripTagsOnly.Tag.self)
        tags.insert(TripTagsOnly.Tag(label: "winter"))
        try tags.save()
        let trips = try reopen(store, TripBase.Trip.self)
        #expect(try trips.fetchCount(FetchDescriptor<TripBase.Trip>()) == 2)
        #expect(try reopen(store, TripTagsOnly.Tag.self).fetch(FetchDescriptor<TripTagsOnly.Tag>()).map(\.label) == ["winter"])
    }

    @Test("A migration writes a backup next to the store that the old models open; the option turns it off")
    func backup() throws {
        let store = TemporaryStore()
        try seedTrips(store)
        _ = try reopen(store, TripAddedOptional.Trip.self)
        let backups = store.backups()
        #expect(backups.count == 1)
        let backupURL = URL(fileURLWithPath: store.url.path + (backups.first ?? ""))
        let old = ModelContext(try ModelContainer(for: TripBase.Trip.self, configurations: ModelConfiguration(url: backupURL, allowsSave: false)))
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
        // Unchanged models open it without writing.
        let before = store.bytes()
        _ = try reopen(store, TripWithTags.Trip.self, TripWithTags.Tag.self)
        #expect(store.bytes() == before)
        let context = try reopen(store, TripWithRenamedTags.Trip.self, TripWithRenamedTags.Tag.self)
        let trip = try #require(try context.fetch(FetchDescriptor<TripWithRenamedTags.Trip>()).first)
        #expect(trip.labels.map(\.label) == ["coast"])
    }

    @Test("A dry run pins the SQL: an added defaulted attribute is one ALTER TABLE … ADD COLUMN, no table copy")
    func dryRunSQL() throws {
        let store = TemporaryStore()
        try seedTrips(store)
        let before = store.bytes()
        let steps = try ModelContainer.migrationSteps(for: Schema([TripAddedDefault.Trip.self]), configurations: ModelConfiguration(url: store.url))
        #expect(steps.count == 1)
        #expect(steps.first?.sql == [
            "ALTER TABLE \"Trip\" ADD COLUMN \"rating\" INTEGER NOT NULL DEFAULT 3",
            "ALTER TABLE \"Trip\" ADD COLUMN \"currency\" TEXT NOT NULL DEFAULT 'EUR'",
        ])
        #expect(store.bytes() == before)
        #expect(store.backups().isEmpty)
    }
}
