import Foundation
import Strata

/// How an entity's rows travel between replicas: the attribute naming each row on every replica (its sync
/// identity), the attributes whose values are synced, and the to-one relationships, synced as the identity of the
/// row they point to.
struct SyncedEntity: Sendable {
    let entity: Schema.Entity
    /// The property index of the identity attribute.
    let identityIndex: Int
    /// The name of the identity attribute (its column).
    let identityName: String
    /// The property indexes of every synced attribute, the identity included.
    let attributeIndexes: [Int]

    /// The synced form of every entity of `schema`, in the schema's order.
    /// - Throws: ``SyncError/missingSyncIdentity(entity:reason:)`` for the first entity without one.
    static func all(in schema: Schema) throws -> [SyncedEntity] {
        try schema.entities.map(SyncedEntity.init)
    }

    /// A to-one relationship stored in the entity's rows, synced as the identity of the row it points to.
    struct Reference: Sendable {
        /// The destination entity's name.
        let destination: String
        /// The property index of the destination's identity attribute.
        let identityIndex: Int
    }

    /// The to-one relationships stored in the entity's rows (a foreign key), by property index. A to-many is
    /// synced through the to-one on its other side.
    let references: [Int: Reference]

    /// The property index of every synced property: the attributes, then the to-one relationships.
    let propertyIndexes: [Int]

    init(_ entity: Schema.Entity) throws {
        let identity = try Self.identity(of: entity)
        self.entity = entity
        self.identityIndex = identity.index
        self.identityName = identity.name
        self.attributeIndexes = entity.persistentProperties.compactMap { property in
            if case .attribute = property.kind, entity.attributesByName[property.name]?.isTransient != true {
                return property.index
            }
            return nil
        }
        var references: [Int: Reference] = [:]
        for (index, info) in entity.relationshipInfos where !info.isToMany {
            guard case .foreignKey = info.storage else { continue }
            let destination = try Self.identity(of: info.destination)
            references[index] = Reference(destination: info.destination.name, identityIndex: destination.index)
        }
        self.references = references
        self.propertyIndexes = attributeIndexes + references.keys.sorted()
    }

    /// The entity's identity attribute.
    /// - Throws: ``SyncError/missingSyncIdentity(entity:reason:)`` when it has none, or several.
    private static func identity(of entity: Schema.Entity) throws -> (index: Int, name: String) {
        let candidates = entity.persistentProperties.filter { property in
            guard case .attribute = property.kind, property.valueType == UUID.self,
                let attribute = entity.attributesByName[property.name]
            else { return false }
            return attribute.isUnique
        }
        guard let identity = candidates.first else {
            throw SyncError.missingSyncIdentity(
                entity: entity.name, reason: "it has no unique, non-optional UUID attribute")
        }
        guard candidates.count == 1 else {
            throw SyncError.missingSyncIdentity(
                entity: entity.name,
                reason:
                    "it has \(candidates.count) unique UUID attributes (\(candidates.map(\.name).joined(separator: ", "))) "
                    + "and sync needs exactly one")
        }
        guard entity.attributesByName[identity.name]?.options.contains(.preserveValueOnDeletion) == true else {
            throw SyncError.missingSyncIdentity(
                entity: entity.name,
                reason: "its unique UUID attribute `\(identity.name)` is not `.preserveValueOnDeletion`, so a deleted "
                    + "row's identity would be lost from the history the other replicas read")
        }
        return (identity.index, identity.name)
    }

    /// The property index of each synced property named in `names` (unknown names and to-many relationships left
    /// out).
    func propertyIndexes(named names: [String]) -> [Int] {
        let wanted = Set(names)
        return propertyIndexes.filter { wanted.contains(entity.persistentProperties[$0].name) }
    }
}
