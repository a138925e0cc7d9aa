import Foundation
import SwiftData
import Testing

/// The models of a catalog as an app ships them, and as the next release changes them.
enum CatalogV1 {
    @Model final class Record {
        @Attribute(.unique) var code: String
        var title: String
        var price: Double?
        @Relationship(deleteRule: .cascade, inverse: \Track.record) var tracks: [Track] = []
        #Index<Record>([\.title], [\.title, \.price])

        init(code: String, title: String) {
            self.code = code
            self.title = title
        }
    }

    @Model final class Track {
        var name: String
        var record: Record?
        @Attribute(.ephemeral) var isPlaying = false

        init(name: String) { self.name = name }
    }
}

enum CatalogV2 {
    /// `price` is now required.
    @Model final class Record {
        @Attribute(.unique) var code: String
        var title: String
        var price: Double
        @Relationship(deleteRule: .cascade, inverse: \Track.record) var tracks: [Track] = []
        #Index<Record>([\.title], [\.title, \.price])

        init(code: String, title: String, price: Double) {
            self.code = code
            self.title = title
            self.price = price
        }
    }

    @Model final class Track {
        var name: String
        var record: Record?
        @Attribute(.ephemeral) var isPlaying = false

        init(name: String) { self.name = name }
    }
}

@Model class CatalogItem {
    var label: String
    init(label: String) { self.label = label }
}

@Model final class CatalogBook: CatalogItem {
    var pages: Int
    init(label: String, pages: Int) {
        self.pages = pages
        super.init(label: label)
    }
}

/// `Schema` is `Hashable` and `Codable`, as SwiftData's is: code keeps the schema it wrote a store with, puts schemas
/// in sets, and compares them to tell whether the models changed.
@Suite struct SchemaCodableTests {
    @Test func schemasOfTheSameModelsAreEqualAndHashAlike() {
        let first = Schema([CatalogV1.Record.self, CatalogV1.Track.self])
        let second = Schema([CatalogV1.Track.self, CatalogV1.Record.self])
        #expect(first == second)
        #expect(first.hashValue == second.hashValue)
        #expect(Set([first, second]).count == 1)
        #expect(first.entitiesByName["Record"] == second.entitiesByName["Record"])
        #expect(first.encodingVersion == Schema.schemaEncodingVersion)
    }

    @Test func aChangedPropertyMakesSchemasUnequal() throws {
        let before = Schema([CatalogV1.Record.self, CatalogV1.Track.self])
        let after = Schema([CatalogV2.Record.self, CatalogV2.Track.self])
        #expect(before != after)
        #expect(Set([before, after]).count == 2)
        let old = try #require(before.entitiesByName["Record"])
        let new = try #require(after.entitiesByName["Record"])
        #expect(old != new)
        #expect(old.attributesByName["price"] != new.attributesByName["price"])
        #expect(old.attributesByName["title"] == new.attributesByName["title"])
        #expect(before.entitiesByName["Track"] == after.entitiesByName["Track"])
        #expect(before != Schema([CatalogV1.Record.self, CatalogV1.Track.self], version: Schema.Version(2, 0, 0)))
    }

    @Test func aSchemaSurvivesAJSONRoundTrip() throws {
        let schema = Schema([CatalogV1.Record.self, CatalogV1.Track.self], version: Schema.Version(1, 2, 0))
        let data = try JSONEncoder().encode(schema)
        let decoded = try JSONDecoder().decode(Schema.self, from: data)
        #expect(decoded == schema)
        #expect(decoded.hashValue == schema.hashValue)
        #expect(decoded != Schema([CatalogV2.Record.self, CatalogV2.Track.self], version: Schema.Version(1, 2, 0)))
        #expect(decoded.version == Schema.Version(1, 2, 0))
        #expect(decoded.entities.map(\.name) == ["Record", "Track"])

        let record = try #require(decoded.entitiesByName["Record"])
        #expect(record.uniquenessConstraints == [["code"]])
        #expect(record.indices == [["title"], ["title", "price"]])
        let price = try #require(record.attributesByName["price"])
        #expect(price.isOptional && !price.isUnique)
        #expect(record.attributesByName["code"]?.isUnique == true)
        let tracks = try #require(record.relationshipsByName["tracks"])
        #expect(tracks.destination == "Track" && tracks.inverseName == "record")
        #expect(tracks.deleteRule == .cascade && !tracks.isToOneRelationship)
        #expect(tracks.keypath == nil)
        let track = try #require(decoded.entitiesByName["Track"])
        #expect(track.attributesByName["isPlaying"]?.isTransient == true)
        #expect(track.storedProperties.map(\.name).sorted() == ["name", "record"])
        #expect(track.relationshipsByName["record"]?.isToOneRelationship == true)

        // Encoding the decoded schema writes the same description.
        let again = try JSONDecoder().decode(Schema.self, from: try JSONEncoder().encode(decoded))
        #expect(again == schema)
    }

    @Test func anEncodedSchemaNamesTypesOptionsAndVersions() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let text = String(
            decoding: try encoder.encode(Schema([CatalogV1.Record.self, CatalogV1.Track.self])), as: UTF8.self)
        #expect(text.contains("\"encodingVersion\""))
        #expect(text.contains("\"valueType\":\"Swift.Double\""))
        #expect(text.contains("\"name\":\"unique\""))
        #expect(text.contains("\"deleteRule\":\"cascade\""))
    }

    @Test func aHierarchyKeepsItsSuperentityThroughARoundTrip() throws {
        let schema = Schema([CatalogItem.self, CatalogBook.self])
        let decoded = try JSONDecoder().decode(Schema.self, from: try JSONEncoder().encode(schema))
        #expect(decoded == schema)
        #expect(decoded.entitiesByName["CatalogBook"]?.superentityName == "CatalogItem")
        #expect(decoded.entitiesByName["CatalogBook"]?.superentity === decoded.entitiesByName["CatalogItem"])
        #expect(decoded.entitiesByName["CatalogItem"]?.subentities.map(\.name) == ["CatalogBook"])
    }

    @Test func entitiesAndPropertiesAreCodableOnTheirOwn() throws {
        let entity = try #require(Schema([CatalogV1.Record.self, CatalogV1.Track.self]).entitiesByName["Record"])
        let decoded = try JSONDecoder().decode(Schema.Entity.self, from: try JSONEncoder().encode(entity))
        #expect(decoded == entity)
        let title = try #require(entity.attributesByName["title"])
        #expect(try JSONDecoder().decode(Schema.Attribute.self, from: try JSONEncoder().encode(title)) == title)
        let tracks = try #require(entity.relationshipsByName["tracks"])
        #expect(try JSONDecoder().decode(Schema.Relationship.self, from: try JSONEncoder().encode(tracks)) == tracks)
    }

    @Test func aDecodedSchemaOpensNoContainer() throws {
        let schema = Schema([CatalogV1.Record.self, CatalogV1.Track.self])
        let decoded = try JSONDecoder().decode(Schema.self, from: try JSONEncoder().encode(schema))
        let error = #expect(throws: SwiftDataError.self) {
            _ = try ModelContainer(for: decoded, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        }
        #expect(String(describing: error).contains("decoded"))
    }

    @Test func dataFromANewerFormatOrNamingAnEntityTwiceIsRefused() throws {
        func encoded(format: Int, entities: [String]) -> Data {
            let version = #"{"major":1,"minor":0,"patch":0}"#
            let encodingVersion = #"{"major":\#(format),"minor":0,"patch":0}"#
            let list = entities.joined(separator: ",")
            return Data(
                #"{"encodingVersion":\#(encodingVersion),"version":\#(version),"entities":[\#(list)]}"#.utf8)
        }
        let newer = encoded(format: 2, entities: [])
        let error = #expect(throws: DecodingError.self) { _ = try JSONDecoder().decode(Schema.self, from: newer) }
        #expect(String(describing: error).contains("2.0.0"))

        let entity = #"{"name":"Note","attributes":[],"relationships":[],"uniquenessConstraints":[],"indices":[]}"#
        #expect(try JSONDecoder().decode(Schema.self, from: encoded(format: 1, entities: [entity])).entities.count == 1)
        let twice = encoded(format: 1, entities: [entity, entity])
        let duplicate = #expect(throws: DecodingError.self) { _ = try JSONDecoder().decode(Schema.self, from: twice) }
        #expect(String(describing: duplicate).contains("'Note' twice"))
    }
}
