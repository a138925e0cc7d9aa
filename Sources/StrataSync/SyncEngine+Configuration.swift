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
        /// Decides each ``SyncConflict`` the engine meets — a change here meeting one made elsewhere since this
        /// device last fetched — as a Core Data merge policy decides a save's conflicts; `nil` keeps each
        /// conflict's ``SyncConflict/defaultResolution``. Called on the engine's actor; keep it quick and
        /// deterministic, since both the sending and the fetching side may ask about one conflict.
        public var conflictResolver: (@Sendable (SyncConflict) -> SyncConflict.Resolution)?
        /// Whether the engine sends and fetches by itself (CloudKit's name and default): after each local save, when
        /// the hub announces a commit (PostgreSQL `NOTIFY`), every ``pollingInterval``, and again after a failure,
        /// waiting longer each time. With `false` the app calls ``SyncEngine/sendChanges()`` and
        /// ``SyncEngine/fetchChanges()`` itself.
        public var automaticallySync = true
        /// How often the automatic sync looks for changes when nothing woke it: the hub's announcements don't reach
        /// a device that was offline when they were sent.
        public var pollingInterval: Duration = .seconds(30)

        /// Creates a configuration.
        public init(
            container: ModelContainer, hub: PostgresConfiguration, stateSerialization: State.Serialization?,
            conflictResolver: (@Sendable (SyncConflict) -> SyncConflict.Resolution)? = nil
        ) {
            self.container = container
            self.hub = hub
            self.stateSerialization = stateSerialization
            self.conflictResolver = conflictResolver
        }
    }
}
