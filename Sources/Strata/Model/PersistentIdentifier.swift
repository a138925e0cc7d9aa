import Foundation

/// The identity of a model across contexts and actors: its entity, its store and its row.
///
/// A model that was never saved has a *temporary* identifier; saving gives it a *permanent* one, as in SwiftData.
/// Identifiers are `Sendable`, so hand them across actors and look the model up with `ModelContext.model(for:)`.
public struct PersistentIdentifier: Sendable, Hashable, Codable, Comparable, Identifiable, CustomStringConvertible {
    package enum Key: Sendable, Hashable, Codable {
        case permanent(Int64)
        case temporary(UUID)
        /// A custom store's own primary key (`identifier(for:entityName:primaryKey:)`), as its JSON encoding: the
        /// identifier of a row in that store's terms, which the container maps to a row key of its own.
        case custom(String)
    }

    /// The name of the model's entity.
    public let entityName: String
    /// The identifier of the store holding the model; `nil` while the identifier is temporary.
    public let storeIdentifier: String?
    package let key: Key

    package init(entityName: String, storeIdentifier: String?, key: Key) {
        self.entityName = entityName
        self.storeIdentifier = storeIdentifier
        self.key = key
    }

    package static func temporary(entityName: String) -> PersistentIdentifier {
        PersistentIdentifier(entityName: entityName, storeIdentifier: nil, key: .temporary(UUID()))
    }

    /// The identifier itself, so identifiers serve as `Identifiable` values (`ForEach(ids) { … }`).
    public var id: PersistentIdentifier { self }

    /// Whether the identifier was assigned before the model's first save.
    public var isTemporary: Bool {
        if case .temporary = key { return true }
        return false
    }

    /// The row identifier in the store, for permanent identifiers.
    package var primaryKey: Int64? {
        if case .permanent(let key) = key { return key }
        return nil
    }

    /// The key a query compares for this identifier: the row's primary key, or for a temporary identifier a
    /// negative number drawn from its UUID. Stores number rows from 1, so no stored row matches a temporary
    /// identifier, while an unsaved model judged in memory (`QueryEvaluator`) reads its own as its key.
    package var queryKey: Int64 {
        switch key {
        case .permanent(let row): return row
        case .custom:
            // A custom store's key never reaches a query: the container maps it to a row key first.
            return 0
        case .temporary(let uuid):
            let bytes = uuid.uuid
            let high = [bytes.0, bytes.1, bytes.2, bytes.3, bytes.4, bytes.5, bytes.6, bytes.7]
                .reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            // Below -1: `-1` and `0` stay free for "no row at all".
            return -Int64(high >> 2) - 2
        }
    }

    /// Hashes the row (or the temporary UUID) alone: it tells identifiers apart almost always, and hashing the
    /// entity and store names too would make every set of identifiers much slower to build.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(key)
    }

    /// Orders identifiers by entity name, then saved models (by store, then in the order their rows were first
    /// saved) before unsaved ones, so `SortDescriptor(\Item.persistentModelID)` sorts as the store does.
    public static func < (lhs: PersistentIdentifier, rhs: PersistentIdentifier) -> Bool {
        if lhs.entityName != rhs.entityName { return lhs.entityName < rhs.entityName }
        // A temporary identifier has no store yet; it sorts after the saved models, where its row will go.
        if let left = lhs.storeIdentifier, let right = rhs.storeIdentifier, left != right { return left < right }
        switch (lhs.key, rhs.key) {
        case (.permanent(let left), .permanent(let right)): return left < right
        case (.permanent, .temporary): return true
        case (.temporary, .permanent): return false
        case (.temporary(let left), .temporary(let right)): return left.uuidString < right.uuidString
        case (.custom(let left), .custom(let right)): return left < right
        case (.custom, _): return true
        case (_, .custom): return false
        }
    }

    public var description: String {
        switch key {
        case .permanent(let row): "\(entityName)/\(row)"
        case .temporary(let uuid): "\(entityName)/temporary-\(uuid.uuidString)"
        case .custom(let key): "\(entityName)/\(key)"
        }
    }
}
