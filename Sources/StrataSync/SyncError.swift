/// Why a ``SyncEngine`` could not start, send or fetch. Each case names what was wrong and where.
public enum SyncError: Error, CustomStringConvertible, Equatable, Sendable {
    /// An entity has no attribute that can name its rows on every replica: a `UUID` attribute declared
    /// `@Attribute(.unique, .preserveValueOnDeletion)`.
    case missingSyncIdentity(entity: String, reason: String)
    /// The state a configuration was given belongs to another local store (its identifier is not this one's).
    case stateOfAnotherStore(expected: String, found: String)
    /// The hub could not be opened, read or written; the local store keeps every change for the next attempt.
    case hubUnavailable(operation: String, reason: String)
    /// The hub refused a batch of this device's changes — a row its role may not write (privileges, row-level
    /// security) or one that breaks a constraint — and applied none of it; the changes stay pending here.
    case changesRefused(reason: String)
    /// The hub holds other models than the device's schema: `device` and `hub` are the two schemas' versions
    /// (`unversioned` for a hub written without a `VersionedSchema`), `differences` what opening the hub with the
    /// device's schema would change. A device never migrates the hub; migrate it from server code first.
    case schemaMismatch(device: String, hub: String, differences: [String])
    /// The local store failed while the engine read the changes to send or saved the fetched ones; nothing was lost
    /// (the changes stay pending, the fetch is read again next time).
    case localStoreFailure(operation: String, reason: String)
    /// The local container's store can't keep what sync needs beside the models (`reason` says what and why).
    case unsupportedLocalStore(reason: String)

    public var description: String {
        switch self {
        case .missingSyncIdentity(let entity, let reason):
            "\(entity) has no sync identity: \(reason); declare one as "
                + "`@Attribute(.unique, .preserveValueOnDeletion) var id = UUID()`"
        case .stateOfAnotherStore(let expected, let found):
            "the sync state was saved for the local store \(found), not for this one (\(expected)): "
                + "start without a state serialization to sync this store as a new device"
        case .hubUnavailable(let operation, let reason):
            "the hub could not \(operation): \(reason); local changes stay pending"
        case .changesRefused(let reason):
            "the hub refused this device's changes and applied none of them: \(reason); they stay pending here"
        case .schemaMismatch(let device, let hub, let differences):
            "the hub holds schema version \(hub) and this device has \(device); syncing would change the hub ("
                + differences.joined(separator: "; ") + "): migrate the hub from server code, then sync"
        case .localStoreFailure(let operation, let reason):
            "the local store could not \(operation): \(reason)"
        case .unsupportedLocalStore(let reason):
            "the local store can't be synced: \(reason)"
        }
    }
}
