import Foundation
import Strata

/// How an entity's rows travel between replicas: the attribute naming each row on every replica (its sync
/// identity) and the attributes whose values are synced.
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

    init(_ entity: Schema.Entity) throws {
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
        self.entity = entity
        self.identityIndex = identity.index
        self.identityName = identity.name
        self.attributeIndexes = entity.persistentProperties.compactMap { property in
            if case .attribute = property.kind, entity.attributesByName[property.name]?.isTransient != true {
                return property.index
            }
            return nil
        }
    }

    /// The property index of each synced attribute named in `names` (unknown names and relationships left out).
    func attributeIndexes(named names: [String]) -> [Int] {
        let wanted = Set(names)
        return attributeIndexes.filter { wanted.contains(entity.persistentProperties[$0].name) }
    }
}
