import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

@Suite("Inferred lightweight migration")
struct InferredMigrationTests {
    private func seedTrips(_ store: TestStore) throws {
        try store.seed(TripBase.Trip.self) { context in
            context.insert(TripBase.Trip(name: "Lisbon", days: 4, note: "tram 28"))
            context.insert(TripBase.Trip(name: "Oslo", days: 2))
        }
    }

    /// How the store defines `table`: SQLite's DDL text; on PostgreSQL its columns (type and default) and constraints.
    private func definition(_ store: TestStore, _ table: String) throws -> String {
        switch store.kind {
        case .sqlite:
            return try tableSQL(store.file, table)
        case .postgres:
            let columns = try store.postgresRows(
                """
                SELECT '"' || column_name || '" ' || data_type || coalesce(' DEFAULT ' || column_default, '') FROM information_schema.columns
                WHERE table_schema = $1 AND table_name = '\(table)' ORDER BY ordinal_position
                """)
            let constraints = try store.postgresRows(
                """
                SELECT pg_get_constraintdef(c.oid) FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid
                WHERE t.relnamespace = to_regnamespace($1) AND t.relname = '\(table)' ORDER BY 1
                """)
            return (columns + constraints).joined(separator: ", ")
        }
    }

    @Test("An added optional attribute is added with ALTER TABLE (no rebuild) and reads nil", arguments: StoreKind.all)
    func addedOptional(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        try seedTrips(store)
        let context = try store.reopen(TripAddedOptional.Trip.self)
        let trips = try context.fetch(FetchDescriptor<TripAddedOptional.Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(trips.map(\.name) == ["Lisbon", "Oslo"])
        #expect(trips.map(\.budget) == [nil, nil])
        trips[0].budget = 120.5
        try context.save()
        // ADD COLUMN appends to SQLite's own DDL text; a rebuild would have written the models' definition.
        if kind == .sqlite {
            #expect(try tableSQL(store.file, "Trip").contains("\"budget\" REAL"))
            #expect(try tableSQL(store.file, "Trip").hasSuffix("\"budget\" REAL)"))
        }
    }

    @Test("An added attribute with an initial value gives existing rows that value", arguments: StoreKind.all)
    func addedDefault(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        try seedTrips(store)
        let context = try store.reopen(TripAddedDefault.Trip.self)
        let trips = try context.fetch(FetchDescriptor<TripAddedDefault.Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(trips.map(\.rating) == [3, 3])
        #expect(trips.map(\.currency) == ["EUR", "EUR"])
        #expect(trips.map(\.note) == ["tram 28", nil])
        #expect(try definition(store, "Trip").contains("DEFAULT 3"))
    }

    @Test(
        "An added non-optional attribute without a value is refused over stored rows; the file stays byte-for-byte",
        arguments: StoreKind.all)
    func addedRequiredIsRefused(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        try seedTrips(store)
        let before = try store.snapshot()
        let error = #expect(throws: SwiftDataError.self) { try store.reopen(TripAddedRequired.Trip.self) }?
            .underlyingError
        guard case .migrationRefused(_, let entity, let property, let reason)? = error else {
            Issue.record("expected migrationRefused, got \(String(describing: error))")
            return
        }
        #expect(entity == "Trip" && property == "country")
        #expect(reason.contains("String") && reason.contains("MigrationStage.custom"))
        #expect(try store.snapshot() == before)
        #expect(store.file.backups().isEmpty)
        #expect(try store.reopen(TripBase.Trip.self).fetchCount(FetchDescriptor<TripBase.Trip>()) == 2)
    }

    @Test("An added non-optional attribute without a value is fine while the table is empty", arguments: StoreKind.all)
    func addedRequiredOverEmptyTable(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        try store.seed(TripBase.Trip.self) { _ in }
        let context = try store.reopen(TripAddedRequired.Trip.self)
        context.insert(TripAddedRequired.Trip(name: "Rome", country: "Italy"))
        try context.save()
        #expect(try context.fetch(FetchDescriptor<TripAddedRequired.Trip>()).map(\.country) == ["Italy"])
    }

    @Test("A removed attribute drops its column and keeps every row", arguments: StoreKind.all)
    func removedAttribute(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        try seedTrips(store)
        let context = try store.reopen(TripRemovedNote.Trip.self)
        #expect(
            try context.fetch(FetchDescriptor<TripRemovedNote.Trip>(sortBy: [SortDescriptor(\.name)])).map(\.days) == [
                4, 2,
            ])
        #expect(try !store.columns(of: "Trip").contains("note"))
    }

    @Test("@Attribute(originalName:) carries the values over to the renamed attribute", arguments: StoreKind.all)
    func renamedAttribute(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        try seedTrips(store)
        let context = try store.reopen(TripRenamed.Trip.self)
        #expect(
            try context.fetch(FetchDescriptor<TripRenamed.Trip>(sortBy: [SortDescriptor(\.title)])).map(\.title) == [
                "Lisbon", "Oslo",
            ])
    }

    @Test("Widening Int32 to Int keeps the values and needs no new table", arguments: StoreKind.all)
    func widenedInteger(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        try seedTrips(store)
        let tableBefore = try definition(store, "Trip")
        let context = try store.reopen(TripWidened.Trip.self)
        #expect(
            try context.fetch(FetchDescriptor<TripWidened.Trip>(sortBy: [SortDescriptor(\.name)])).map(\.days) == [
                4, 2,
            ])
        #expect(try definition(store, "Trip") == tableBefore)
    }

    @Test("Optional to non-optional with an initial value: rows holding nil get the value", arguments: StoreKind.all)
    func optionalToRequiredWithDefault(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        try seedTrips(store)
        let context = try store.reopen(TripNoteRequired.Trip.self)
        #expect(
            try context.fetch(FetchDescriptor<TripNoteRequired.Trip>(sortBy: [SortDescriptor(\.name)])).map(\.note) == [
                "tram 28", "none",
            ])
    }

    @Test(
        "Optional to non-optional without an initial value is refused when a row holds nil, naming the shapes",
        arguments: StoreKind.all)
    func optionalToRequiredWithoutDefault(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        try seedTrips(store)
        let before = try store.snapshot()
        let error = #expect(throws: SwiftDataError.self) { try store.reopen(TripNoteRequiredWithoutDefault.Trip.self) }?
            .underlyingError
        #expect(error?.caseName == "migrationRefused")
        #expect(error?.description.contains("Trip.note") == true)
        #expect(error?.description.contains("String?") == true)
        #expect(try store.snapshot() == before)
    }

    @Test("Non-optional to optional keeps the values", arguments: StoreKind.all)
    func requiredToOptional(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        try seedTrips(store)
        let context = try store.reopen(TripNameOptional.Trip.self)
        let trip = TripNameOptional.Trip(name: "x")
        trip.name = nil
        context.insert(trip)
        try context.save()
        #expect(
            try context.fetch(FetchDescriptor<TripNameOptional.Trip>()).compactMap(\.name).sorted() == [
                "Lisbon", "Oslo",
            ])
    }

    @Test(
        "A type change (Int32 to String) is refused naming entity, property, both shapes and the stage; the file is unchanged",
        arguments: StoreKind.all)
    func typeChangeIsRefused(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        try seedTrips(store)
        let before = try store.snapshot()
        let error = #expect(throws: SwiftDataError.self) { try store.reopen(TripDaysAsText.Trip.self) }?.underlyingError
        let text = error?.description ?? ""
        #expect(text.contains("Trip.days"))
        #expect(text.contains("stored as Int32"))
        #expect(text.contains("declares String"))
        #expect(text.contains("MigrationStage.custom"))
        #expect(try store.snapshot() == before)
    }

    @Test("A uniqueness constraint over distinct values is added and enforced", arguments: StoreKind.all)
    func addedUnique(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        try seedTrips(store)
        let context = try store.reopen(TripUnique.Trip.self)
        #expect(try context.fetchCount(FetchDescriptor<TripUnique.Trip>()) == 2)
        #expect(try definition(store, "Trip").contains(kind == .sqlite ? "UNIQUE (\"name\")" : "UNIQUE (name)"))
        // The constraint holds: a second Lisbon updates the stored one (the default merge policy upserts).
        context.insert(TripUnique.Trip(name: "Lisbon"))
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<TripUnique.Trip>()) == 2)
    }

    @Test(
        "A uniqueness constraint over duplicates is refused naming entity, property and the duplicated value; the file is unchanged",
        arguments: StoreKind.all)
    func addedUniqueOverDuplicates(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        try store.seed(TripBase.Trip.self) { context in
            context.insert(TripBase.Trip(name: "Paris", days: 1))
            context.insert(TripBase.Trip(name: "Paris", days: 3))
            context.insert(TripBase.Trip(name: "Rome", days: 3))
        }
        let before = try store.snapshot()
        let error = #expect(throws: SwiftDataError.self) { try store.reopen(TripUnique.Trip.self) }?.underlyingError
        let text = error?.description ?? ""
        #expect(text.contains("Trip.name"))
        #expect(text.contains("\"Paris\""))
        #expect(text.contains("willMigrate"))
        #expect(try store.snapshot() == before)
        #expect(store.file.backups().isEmpty)
    }

    @Test("An added #Index is created, a removed one dropped", arguments: StoreKind.all)
    func indexes(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        try seedTrips(store)
        _ = try store.reopen(TripIndexed.Trip.self)
        #expect(try store.hasTable("Trip_name_days_index"))
        _ = try store.reopen(TripBase.Trip.self)
        #expect(try !store.hasTable("Trip_name_days_index"))
        #expect(try store.reopen(TripBase.Trip.self).fetchCount(FetchDescriptor<TripBase.Trip>()) == 2)
    }

    @Test(
        "An added entity and relationship: the foreign key is added, rows are kept, relationships work",
        arguments: StoreKind.all)
    func addedEntityAndRelationship(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        try seedTrips(store)
        let context = try store.reopen(TripWithStops.Trip.self, TripWithStops.Stop.self)
        let lisbon = try #require(
            try context.fetch(FetchDescriptor<TripWithStops.Trip>(predicate: #Predicate { $0.name == "Lisbon" })).first)
        let stop = TripWithStops.Stop(place: "Belém")
        context.insert(stop)
        stop.trip = lisbon
        try context.save()
        let again = try store.reopen(TripWithStops.Trip.self, TripWithStops.Stop.self)
        let trip = try #require(
            try again.fetch(FetchDescriptor<TripWithStops.Trip>(predicate: #Predicate { $0.name == "Lisbon" })).first)
        #expect(trip.stops.map(\.place) == ["Belém"])
    }

    @Test("A changed delete rule rewrites the foreign key's action and keeps the references", arguments: StoreKind.all)
    func changedDeleteRule(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        try store.seed(TripWithStops.Trip.self, TripWithStops.Stop.self) { context in
            let trip = TripWithStops.Trip(name: "Kyoto")
            context.insert(trip)
            let stop = TripWithStops.Stop(place: "Fushimi")
            context.insert(stop)
            stop.trip = trip
        }
        #expect(try definition(store, "Stop").contains("ON DELETE CASCADE"))
        let context = try store.reopen(TripWithNullifiedStops.Trip.self, TripWithNullifiedStops.Stop.self)
        #expect(try definition(store, "Stop").contains("ON DELETE SET NULL"))
        let stop = try #require(try context.fetch(FetchDescriptor<TripWithNullifiedStops.Stop>()).first)
        #expect(stop.trip?.name == "Kyoto")
        // The store applies the new rule to rows no context loaded: deleting the trip keeps its stop.
        let fresh = try store.reopen(TripWithNullifiedStops.Trip.self, TripWithNullifiedStops.Stop.self)
        try fresh.delete(model: TripWithNullifiedStops.Trip.self)
        try fresh.save()
        let stops = try store.reopen(TripWithNullifiedStops.Trip.self, TripWithNullifiedStops.Stop.self).fetch(
            FetchDescriptor<TripWithNullifiedStops.Stop>())
        #expect(stops.map(\.place) == ["Fushimi"])
        #expect(stops.first?.trip == nil)
    }

    @Test(
        "A foreign key added over stored rows that refer to missing rows is refused, naming the entity; nothing changes",
        arguments: StoreKind.all)
    func foreignKeyOverDanglingReferences(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        try store.seed(TripWithLooseStops.Trip.self, TripWithLooseStops.Stop.self) { context in
            let trip = TripWithLooseStops.Trip(name: "Kyoto")
            context.insert(trip)
            let stop = TripWithLooseStops.Stop(place: "Fushimi")
            context.insert(stop)
            stop.trip = trip
        }
        // `.noAction` made no foreign key, so the stop outlives its trip.
        try store.execute("DELETE FROM \"Trip\"")
        let before = try store.snapshot()
        let error = #expect(throws: SwiftDataError.self) {
            try store.reopen(TripWithNullifiedStops.Trip.self, TripWithNullifiedStops.Stop.self)
        }?.underlyingError
        guard case .migrationRefused(_, let entity, _, let reason)? = error else {
            Issue.record("expected migrationRefused, got \(String(describing: error))")
            return
        }
        #expect(entity == "Stop")
        #expect(reason.contains("MigrationStage.custom"))
        #expect(try store.snapshot() == before)
    }

    @Test(
        "A removed relationship and entity: the foreign key column is dropped; an inferred migration keeps the entity's table",
        arguments: StoreKind.all)
    func removedRelationshipKeepsEntityTable(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        try store.seed(TripWithStops.Trip.self, TripWithStops.Stop.self) { context in
            let trip = TripWithStops.Trip(name: "Kyoto")
            context.insert(trip)
            let stop = TripWithStops.Stop(place: "Fushimi")
            context.insert(stop)
            stop.trip = trip
        }
        let context = try store.reopen(TripBase.Trip.self)
        #expect(try context.fetch(FetchDescriptor<TripBase.Trip>()).map(\.name) == ["Kyoto"])
        // Another container may still use Stop, so its table stays.
        #expect(try store.hasTable("Stop"))
        let both = try store.reopen(TripWithStops.Trip.self, TripWithStops.Stop.self)
        #expect(try both.fetch(FetchDescriptor<TripWithStops.Stop>()).map(\.place) == ["Fushimi"])
    }

    @Test(
        "A many-to-many relationship is added, then renamed with originalName: its rows are carried over; removing it drops the join table",
        arguments: StoreKind.all)
    func joinTables(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        try seedTrips(store)
        do {
            let context = try store.reopen(TripWithTags.Trip.self, TripWithTags.Tag.self)
            let tag = TripWithTags.Tag(label: "coast")
            context.insert(tag)
            for trip in try context.fetch(FetchDescriptor<TripWithTags.Trip>()) { trip.tags.append(tag) }
            try context.save()
        }
        let context = try store.reopen(TripWithRenamedTags.Trip.self, TripWithRenamedTags.Tag.self)
        let trips = try context.fetch(FetchDescriptor<TripWithRenamedTags.Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(trips.map { $0.labels.map(\.label) } == [["coast"], ["coast"]])
        #expect(try !store.hasTable("Z_Tag_trips__Trip_tags"))
        _ = try store.reopen(TripBase.Trip.self, TripTagsOnly.Tag.self)
        #expect(try !store.hasTable("Z_Tag_trips__Trip_labels"))
        #expect(
            try store.reopen(TripTagsOnly.Tag.self).fetch(FetchDescriptor<TripTagsOnly.Tag>()).map(\.label) == ["coast"]
        )
    }

    @Test(
        "Two containers with different model sets share one store: each adds its entity, neither drops the other's",
        arguments: StoreKind.all)
    func differentModelSets(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        try seedTrips(store)
        let tags = try store.reopen(TripTagsOnly.Tag.self)
        tags.insert(TripTagsOnly.Tag(label: "winter"))
        try tags.save()
        let trips = try store.reopen(TripBase.Trip.self)
        #expect(try trips.fetchCount(FetchDescriptor<TripBase.Trip>()) == 2)
        #expect(
            try store.reopen(TripTagsOnly.Tag.self).fetch(FetchDescriptor<TripTagsOnly.Tag>()).map(\.label) == [
                "winter"
            ])
    }

    @Test(
        "A dry run pins each store's SQL for added defaulted attributes: ADD COLUMN with the default, no copy",
        arguments: StoreKind.all)
    func dryRunSQL(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        try seedTrips(store)
        let before = try store.snapshot()
        let steps = try ModelContainer.migrationSteps(
            for: Schema([TripAddedDefault.Trip.self]), configurations: [try store.configuration()])
        #expect(steps.count == 1)
        #expect(
            steps.first?.sql
                == (kind == .sqlite
                    ? [
                        "ALTER TABLE \"Trip\" ADD COLUMN \"rating\" INTEGER NOT NULL DEFAULT 3",
                        "ALTER TABLE \"Trip\" ADD COLUMN \"currency\" TEXT NOT NULL DEFAULT 'EUR'",
                    ]
                    : [
                        "ALTER TABLE \"Trip\" ADD COLUMN \"rating\" bigint NOT NULL DEFAULT 3",
                        "ALTER TABLE \"Trip\" ADD COLUMN \"currency\" text COLLATE \"C\" NOT NULL DEFAULT 'EUR'",
                    ]))
        #expect(try store.snapshot() == before)
    }
}
