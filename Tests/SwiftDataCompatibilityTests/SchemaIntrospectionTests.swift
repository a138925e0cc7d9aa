import Foundation
import SwiftData
import Testing

@Model final class IntrospectedShelf {
    @Attribute(.unique) var label: String
    var capacity = 40
    @Relationship(deleteRule: .cascade, inverse: \IntrospectedVolume.shelf) var volumes: [IntrospectedVolume]? = []

    init(label: String) { self.label = label }
}

@Model final class IntrospectedVolume {
    @Attribute(originalName: "name") var title: String
    var subtitle: String?
    var shelf: IntrospectedShelf?
    @Relationship(minimumModelCount: 0, maximumModelCount: 3) var companions: [IntrospectedVolume] = []

    #Index<IntrospectedVolume>([\.title])

    init(title: String) { self.title = title }
}

/// Reading a schema as migration tests and sync layers read it: entities, their attributes and relationships, with
/// SwiftData's member names.
@Suite struct SchemaIntrospectionTests {
    let schema = Schema([IntrospectedShelf.self, IntrospectedVolume.self])

    @Test func entitiesAreListedAndFoundByName() throws {
        #expect(schema.entities.map(\.name) == ["IntrospectedShelf", "IntrospectedVolume"])
        #expect(schema.entitiesByName["IntrospectedVolume"]?.name == "IntrospectedVolume")
        #expect(Schema.entityName(for: IntrospectedShelf.self) == "IntrospectedShelf")
    }

    @Test func attributesDescribeTheirProperties() throws {
        let shelf = try #require(schema.entitiesByName["IntrospectedShelf"])
        #expect(Set(shelf.attributes.map(\.name)) == ["label", "capacity"])
        let label = try #require(shelf.attributesByName["label"])
        #expect(label.isUnique && !label.isOptional && label.isAttribute && !label.isRelationship && !label.isTransient)
        #expect(label.valueType is String.Type)
        #expect(label.originalName == "label")
        let capacity = try #require(shelf.attributesByName["capacity"])
        #expect(capacity.valueType is Int.Type)
        #expect(capacity.defaultValue as? Int == 40)
        #expect(shelf.uniquenessConstraints == [["label"]])

        let volume = try #require(schema.entitiesByName["IntrospectedVolume"])
        #expect(volume.attributesByName["title"]?.originalName == "name")
        #expect(volume.attributesByName["subtitle"]?.isOptional == true)
        #expect(volume.attributesByName["subtitle"]?.valueType is String.Type)
        #expect(volume.indices == [["title"]])
    }

    @Test func relationshipsDescribeDestinationInverseAndCardinality() throws {
        let shelf = try #require(schema.entitiesByName["IntrospectedShelf"])
        let volumes = try #require(shelf.relationshipsByName["volumes"])
        #expect(volumes.name == "volumes")
        #expect(volumes.destination == "IntrospectedVolume")
        #expect(volumes.inverseName == "shelf")
        #expect(volumes.inverseKeyPath == \IntrospectedVolume.shelf)
        #expect(volumes.keypath == \IntrospectedShelf.volumes)
        #expect(volumes.deleteRule == .cascade)
        #expect(!volumes.isToOneRelationship && volumes.isOptional && volumes.isRelationship && !volumes.isAttribute)
        #expect(volumes.valueType is IntrospectedVolume.Type)

        let volume = try #require(schema.entitiesByName["IntrospectedVolume"])
        #expect(volume.relationships.map(\.name).sorted() == ["companions", "shelf"])
        let owner = try #require(volume.relationshipsByName["shelf"])
        #expect(owner.isToOneRelationship && owner.isOptional)
        #expect(owner.inverseName == "volumes")
        #expect(owner.inverseKeyPath == \IntrospectedShelf.volumes)
        #expect(owner.deleteRule == .nullify)
        let companions = try #require(volume.relationshipsByName["companions"])
        #expect(companions.maximumModelCount == 3)
        #expect(companions.inverseName == nil)
    }

    @Test func propertiesListAttributesAndRelationshipsInDeclarationOrder() throws {
        let volume = try #require(schema.entitiesByName["IntrospectedVolume"])
        #expect(volume.properties.map(\.name) == ["title", "subtitle", "shelf", "companions"])
        #expect(volume.storedProperties.map(\.name) == ["title", "subtitle", "shelf", "companions"])
        #expect(volume.properties.map(\.isRelationship) == [false, false, true, true])
        #expect(volume.propertiesByName["shelf"]?.valueType is IntrospectedShelf.Type)
        #expect(volume.storedPropertiesByName.count == 4)
    }

    @Test func twoVersionsOfAModelCompareByTheirShape() {
        let again = Schema([IntrospectedShelf.self, IntrospectedVolume.self])
        let shelf = schema.entitiesByName["IntrospectedShelf"]
        let shelfAgain = again.entitiesByName["IntrospectedShelf"]
        #expect(shelf?.attributes == shelfAgain?.attributes)
        #expect(shelf?.relationships == shelfAgain?.relationships)
        #expect(shelf?.attributes != schema.entitiesByName["IntrospectedVolume"]?.attributes)
    }
}
