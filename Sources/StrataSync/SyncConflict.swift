import Foundation
import Strata

/// A change this device made to a row that meets a change made elsewhere — by another device or server code on the
/// hub — since this device last fetched. A ``SyncEngine`` meets one when it sends (the hub changed the row since
/// the device's last fetch) or when it fetches (the device changed the row and has not sent it yet), and asks the
/// configuration's ``SyncEngine/Configuration/conflictResolver`` which side to keep, as Core Data asks a merge policy.
public struct SyncConflict: Sendable, Hashable, CustomStringConvertible {
    /// How the two changes meet.
    public enum Kind: Sendable, Hashable {
        /// Both sides changed these properties (names, in the schema's order).
        case bothChanged(properties: [String])
        /// This device changed these properties of a row the hub deleted.
        case changedHereDeletedOnHub(properties: [String])
        /// This device deleted a row whose properties the hub changed (names, in the schema's order).
        case deletedHereChangedOnHub(properties: [String])
    }

    /// Which side a conflict keeps.
    public enum Resolution: Sendable, Hashable {
        /// This device's change: its property values, its delete, or — against a delete on the hub — its row, sent
        /// back to the hub whole.
        case keepLocal
        /// The hub's: its property values, its delete, or — against a delete here — its row, brought back here.
        case keepHub
    }

    /// The model's entity name.
    public let entityName: String
    /// The row's sync identity.
    public let identity: UUID
    /// How the changes meet.
    public let kind: Kind

    /// Creates a conflict (what a resolver is given; public for an app's tests of its resolver).
    public init(entityName: String, identity: UUID, kind: Kind) {
        self.entityName = entityName
        self.identity = identity
        self.kind = kind
    }

    /// What the default resolver keeps: the last change of a property to reach the hub wins, so this device's
    /// values (``Resolution/keepLocal``) against the hub's; a delete wins over any change made concurrently,
    /// on either side.
    public var defaultResolution: Resolution {
        switch kind {
        case .bothChanged: .keepLocal
        case .changedHereDeletedOnHub: .keepHub
        case .deletedHereChangedOnHub: .keepLocal
        }
    }

    public var description: String {
        switch kind {
        case .bothChanged(let properties):
            "\(entityName) \(identity): \(properties.joined(separator: ", ")) changed here and on the hub"
        case .changedHereDeletedOnHub(let properties):
            "\(entityName) \(identity): \(properties.joined(separator: ", ")) changed here, the row deleted on the hub"
        case .deletedHereChangedOnHub(let properties):
            "\(entityName) \(identity): deleted here, \(properties.joined(separator: ", ")) changed on the hub"
        }
    }
}

extension StoredValue {
    /// The UUID a sync identity holds (16 bytes), or `nil`.
    var syncIdentity: UUID? {
        guard case .blob(let bytes) = self, bytes.count == 16 else { return nil }
        return UUID(uuid: bytes.withUnsafeBytes { $0.loadUnaligned(as: uuid_t.self) })
    }
}
