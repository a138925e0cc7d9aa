import Foundation

extension SyncEngine {
    /// Where a device's sync stands: its identity, how far it has sent its own history to the hub, and how far it
    /// has fetched the hub's.
    public struct State: Sendable, Hashable {
        /// The identity of this device on the hub, chosen at its first sync.
        public let deviceIdentifier: UUID
        /// The identifier of the local store the state belongs to.
        public let storeIdentifier: String
        /// The newest local history transaction the hub has applied (0: none yet).
        public internal(set) var lastSentTransaction: Int64
        /// The hub's snapshot (`pg_current_snapshot()`) as of the last fetch: the next fetch reads the history of
        /// every transaction not visible in it. `nil` before the first fetch, which reads every row.
        var fetchedSnapshot: String?

        /// The state in a form to keep, and give back in ``Configuration/stateSerialization`` (CloudKit's
        /// `CKSyncEngine.State.Serialization`).
        public var serialization: Serialization {
            Serialization(
                deviceIdentifier: deviceIdentifier, storeIdentifier: storeIdentifier,
                lastSentTransaction: lastSentTransaction, fetchedSnapshot: fetchedSnapshot)
        }

        /// An engine's state as data an app keeps: `Codable`, opaque in meaning.
        public struct Serialization: Codable, Sendable, Hashable {
            let deviceIdentifier: UUID
            let storeIdentifier: String
            let lastSentTransaction: Int64
            let fetchedSnapshot: String?
        }

        init(_ serialization: Serialization) {
            deviceIdentifier = serialization.deviceIdentifier
            storeIdentifier = serialization.storeIdentifier
            lastSentTransaction = serialization.lastSentTransaction
            fetchedSnapshot = serialization.fetchedSnapshot
        }

        init(newDeviceOf storeIdentifier: String) {
            deviceIdentifier = UUID()
            self.storeIdentifier = storeIdentifier
            lastSentTransaction = 0
            fetchedSnapshot = nil
        }
    }
}
