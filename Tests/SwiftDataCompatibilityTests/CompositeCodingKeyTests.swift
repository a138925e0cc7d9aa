import Foundation
import SwiftData
import Testing

/// A struct as apps decode it from a web service: its JSON keys are not its property names.
struct ServiceVenue: Codable, Hashable {
    struct Position: Codable, Hashable {
        var lat: Double
        enum CodingKeys: String, CodingKey { case lat = "latitude" }
    }
    var cityName: String
    var zip: Int?
    var position: Position?
    var isOpen: Bool

    enum CodingKeys: String, CodingKey {
        case cityName = "city_name"
        case zip = "postal_code"
        case position = "geo"
        case isOpen
    }
}

@Model final class ServiceShop {
    var name: String
    var venue: ServiceVenue
    init(name: String, venue: ServiceVenue) {
        self.name = name
        self.venue = venue
    }
}

/// Predicates and sorts over fields of a composite whose `CodingKeys` rename them read the keys the value is stored
/// under, not the property names.
@Suite struct CompositeCodingKeyTests {
    @Test(arguments: StoreKind.all) func fieldsRenamedByCodingKeysAreQueriedAndSorted(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, ServiceShop.self)
        let context = ModelContext(container)
        context.insert(
            ServiceShop(
                name: "Tasca",
                venue: ServiceVenue(cityName: "Lisbon", zip: 1100, position: .init(lat: 38.7), isOpen: true)))
        context.insert(
            ServiceShop(name: "Adega", venue: ServiceVenue(cityName: "Porto", zip: nil, position: nil, isOpen: false)))
        context.insert(
            ServiceShop(
                name: "Bar", venue: ServiceVenue(cityName: "Faro", zip: 8000, position: .init(lat: 37.0), isOpen: true))
        )
        try context.save()

        let reader = ModelContext(container)
        func names(_ predicate: Predicate<ServiceShop>) throws -> [String] {
            try reader.fetch(FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\.name)])).map(\.name)
        }
        #expect(try names(#Predicate { $0.venue.cityName == "Lisbon" }) == ["Tasca"])
        #expect(try names(#Predicate { $0.venue.zip == nil }) == ["Adega"])
        #expect(try names(#Predicate { ($0.venue.zip ?? 0) > 5000 }) == ["Bar"])
        #expect(try names(#Predicate { ($0.venue.position?.lat ?? 0) > 38 }) == ["Tasca"])
        let sorted = try reader.fetch(FetchDescriptor<ServiceShop>(sortBy: [SortDescriptor(\.venue.cityName)]))
        #expect(sorted.map(\.name) == ["Bar", "Tasca", "Adega"])

        // Unsaved changes are judged in memory the same way.
        sorted[0].venue.cityName = "Lagos"
        #expect(try names(#Predicate { $0.venue.cityName == "Lagos" }) == ["Bar"])
    }
}
