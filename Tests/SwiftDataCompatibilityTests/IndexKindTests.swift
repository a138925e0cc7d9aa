import Foundation
import SwiftData
import Testing

@Model final class Landmark {
    #Index<Landmark>(.binary([\.name]), .rtree([\.latitude, \.longitude]))
    var name: String
    var latitude: Double
    var longitude: Double
    init(name: String, latitude: Double, longitude: Double) {
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// `#Index` with index kinds, as SwiftData models declare a spatial index beside an ordinary one.
@Suite struct IndexKindCompatibilityTests {
    @Test(arguments: StoreKind.all) func aModelWithAnRTreeIndexStoresAndQueries(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, Landmark.self)
        let context = ModelContext(container)
        context.insert(Landmark(name: "Belém Tower", latitude: 38.69, longitude: -9.22))
        context.insert(Landmark(name: "Clérigos", latitude: 41.15, longitude: -8.61))
        context.insert(Landmark(name: "Eiffel Tower", latitude: 48.86, longitude: 2.29))
        try context.save()
        let minimum = 38.0
        let maximum = 42.0
        let iberian = try context.fetch(
            FetchDescriptor<Landmark>(
                predicate: #Predicate { $0.latitude >= minimum && $0.latitude <= maximum && $0.longitude < 0 },
                sortBy: [SortDescriptor(\.latitude)]))
        #expect(iberian.map(\.name) == ["Belém Tower", "Clérigos"])
        #expect(Schema([Landmark.self]).entity(for: Landmark.self)?.indices == [["name"], ["latitude", "longitude"]])
    }

    @Test func indexDescriptionsListTheirKinds() {
        let index = Schema.Index<Landmark>(.binary([\.name]), .rtree([\.latitude, \.longitude]))
        #expect(index.indices == [.binary([\.name]), .rtree([\.latitude, \.longitude])])
        #expect(Schema.Index<Landmark>([\.name]) == Schema.Index<Landmark>(.binary([\.name])))
        #expect(Schema.Index<Landmark>([\.name]) != Schema.Index<Landmark>(.rtree([\.name])))
    }
}

extension IndexKindCompatibilityTests {
    @Test func indexDescriptionsSurviveAJSONRoundTrip() throws {
        let index = Schema.Index<Landmark>(.binary([\.name]), .rtree([\.latitude, \.longitude]))
        let data = try JSONEncoder().encode(index)
        #expect(try JSONDecoder().decode(Schema.Index<Landmark>.self, from: data) == index)
        let unknown = Data(#"{"indices":[{"kind":"binary","properties":["altitude"]}]}"#.utf8)
        let error = #expect(throws: DecodingError.self) {
            _ = try JSONDecoder().decode(Schema.Index<Landmark>.self, from: unknown)
        }
        #expect(String(describing: error).contains("altitude"))
    }
}
