import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

@Model final class MappedPlace {
    #Index<MappedPlace>(.binary([\.name]), .rtree([\.latitude, \.longitude]), .binary([\.name, \.latitude]))
    var name: String
    var latitude: Double
    var longitude: Double
    init(name: String, latitude: Double, longitude: Double) {
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
    }
}

@Suite("#Index of index kinds: binary and R-tree")
struct IndexKindTests {
    /// The indexes written as such on `table` (not those backing a primary key or a constraint).
    private func indexes(_ store: TestStore, on table: String) throws -> [String] {
        switch store.kind {
        case .sqlite:
            try store.texts(
                "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = '\(table)' AND sql IS NOT NULL "
                    + "ORDER BY name")
        case .postgres:
            try store.postgresRows(
                """
                SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND tablename = '\(table)'
                AND indexname NOT IN (SELECT conname FROM pg_constraint WHERE connamespace = to_regnamespace($1))
                ORDER BY 1
                """)
        }
    }

    @Test("Each kind is an ordinary index over its properties, in the order given", arguments: StoreKind.all)
    func eachKindIsAnOrdinaryIndex(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        _ = try store.container(MappedPlace.self)
        #expect(
            try indexes(store, on: "MappedPlace") == [
                "MappedPlace_latitude_longitude_index", "MappedPlace_name_index", "MappedPlace_name_latitude_index",
            ])
        #expect(
            Schema([MappedPlace.self]).entity(for: MappedPlace.self)?.indices == [
                ["name"], ["latitude", "longitude"], ["name", "latitude"],
            ])
        // The store reopens: its recorded schema matches the models.
        _ = try store.container(MappedPlace.self)
    }

    @Test("Queries over the indexed properties answer as without the index", arguments: StoreKind.all)
    func queriesAnswerTheSame(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        let context = ModelContext(try store.container(MappedPlace.self))
        for (name, latitude, longitude) in [
            ("Lisbon", 38.72, -9.14), ("Porto", 41.15, -8.61), ("Madrid", 40.42, -3.70), ("Paris", 48.86, 2.35),
        ] {
            context.insert(MappedPlace(name: name, latitude: latitude, longitude: longitude))
        }
        try context.save()
        let reader = ModelContext(try store.container(MappedPlace.self))
        let (south, north, west, east) = (38.0, 42.0, -9.0, 0.0)
        let box = #Predicate<MappedPlace> {
            $0.latitude >= south && $0.latitude <= north && $0.longitude >= west && $0.longitude <= east
        }
        let inBox = try reader.fetch(
            FetchDescriptor<MappedPlace>(predicate: box, sortBy: [SortDescriptor(\MappedPlace.name)]))
        #expect(inBox.map(\.name) == ["Madrid", "Porto"])
        let named = try reader.fetch(FetchDescriptor<MappedPlace>(predicate: #Predicate { $0.name == "Paris" }))
        #expect(named.map(\.latitude) == [48.86])
    }
}
