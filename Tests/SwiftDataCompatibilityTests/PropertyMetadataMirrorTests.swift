import Foundation
import SwiftData
import Testing

/// `schemaMetadata` read through `Mirror`, as sync and persistence packages read SwiftData's to find a model's
/// `.unique` attributes: the fields carry SwiftData's labels and values.
@Suite struct PropertyMetadataMirrorTests {
    /// The key path of each `.unique` attribute, found as such packages find it.
    private func uniqueKeyPaths<T: PersistentModel>(of _: T.Type) -> [AnyKeyPath] {
        T.schemaMetadata.compactMap { metadata in
            var keypath: AnyKeyPath?
            var attribute: Schema.Attribute?
            for child in Mirror(reflecting: metadata).children {
                if child.label == "keypath" { keypath = child.value as? AnyKeyPath }
                if child.label == "metadata" { attribute = child.value as? Schema.Attribute }
            }
            guard let keypath, attribute?.options.contains(.unique) == true else { return nil }
            return keypath
        }
    }

    @Test func theFieldsHaveSwiftDatasLabelsInItsOrder() throws {
        let first = try #require(IntrospectedShelf.schemaMetadata.first)
        let labels = Mirror(reflecting: first).children.compactMap(\.label)
        #expect(Array(labels.prefix(4)) == ["name", "keypath", "defaultValue", "metadata"])
        let values = Dictionary(
            Mirror(reflecting: first).children.compactMap { child in child.label.map { ($0, child.value) } },
            uniquingKeysWith: { first, _ in first })
        #expect(values["name"] as? String == "label")
        #expect(values["keypath"] as? AnyKeyPath == \IntrospectedShelf.label)
    }

    @Test func uniqueAttributesAreFoundThroughTheMirror() {
        #expect(uniqueKeyPaths(of: IntrospectedShelf.self) == [\IntrospectedShelf.label])
        #expect(uniqueKeyPaths(of: IntrospectedVolume.self).isEmpty)
    }

    @Test func defaultValuesAndRelationshipMetadataAreReadable() throws {
        let byName = Dictionary(
            IntrospectedShelf.schemaMetadata.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        #expect(byName["capacity"]?.defaultValue as? Int == 40)
        #expect(byName["capacity"]?.metadata == nil)
        let volumes = try #require(byName["volumes"])
        let relationship = try #require(volumes.metadata as? Schema.Relationship)
        #expect(relationship.deleteRule == .cascade)
        let mirrored = Mirror(reflecting: volumes).children.first { $0.label == "metadata" }?.value
        #expect(mirrored as? Schema.Relationship === relationship)
    }
}
