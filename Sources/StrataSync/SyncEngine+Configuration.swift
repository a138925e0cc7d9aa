import Foundation
import Strata
import StrataPostgres

extension SyncEngine {
    /// What a ``SyncEngine`` syncs: a local container, the hub's PostgreSQL configuration, and the state the engine
    /// last reported (CloudKit's `CKSyncEngine.Configuration`, with the hub in place of a `CKDatabase`).
    public struct Configuration: Sendable {
        /// The device's container: every entity of its schema is synced.
        public var container: ModelContainer
        /// The hub: a PostgreSQL schema that holds (or will hold) the same models. Each device connects with its
        /// own role and credentials.
        public var hub: PostgresConfiguration
        /// The engine's state as it last reported it (``SyncEngine/State/serialization``), or `nil` the first time
        /// this store syncs. Keep the latest serialization with the app's data: it holds the device's identity and
        /// how far it has sent and fetched.
        public var stateSerialization: State.Serialization?

        /// Creates a configuration.
        public init(container: ModelContainer, hub: PostgresConfiguration, stateSerialization: State.Serialization?) {
            self.container = container
            self.hub = hub
            self.stateSerialization = stateSerialization
        }
    }
}
