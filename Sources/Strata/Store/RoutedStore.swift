/// Several stores acting as one, for a container whose configurations each hold some of its models (SwiftData's
/// `ModelContainer(for: schema, configurations: main, cache)`): every entity lives in exactly one member store,
/// fetches, counts and join-row reads go to the store of their entity, and a save sends each store its share of
/// the changes, committing all of them or none where the stores can hold their transactions open (see
/// ``save(_:mergePolicy:beforeCommit:)``).
///
/// Relationships never cross stores (the container refuses such a schema, as Core Data does), so each store's
/// share of a save refers only to its own rows.
package final class RoutedStore: PersistentStore {
    /// One member store and the configuration it was opened for.
    package struct Member: Sendable {
        package let store: any PersistentStore
        /// The configuration's name, for errors.
        package let configurationName: String

        package init(store: any PersistentStore, configurationName: String) {
            self.store = store
            self.configurationName = configurationName
        }
    }

    /// The member stores, in the order of the container's configurations.
    package let members: [Member]
    /// The container's whole schema: every member's entities.
    package let schema: Schema
    /// The member holding each entity, by entity name.
    private let memberByEntity: [String: Int]
    /// The member holding each join table, by table name.
    private let memberByTable: [String: Int]
    /// The members in the order a save writes them (see ``save(_:mergePolicy:beforeCommit:)``): stores that roll
    /// back around the nested call first, a custom store, which can't, last; among the others, the order of the
    /// stores' own identifiers, so two containers over the same stores, whatever the order of their
    /// configurations, take the stores' write locks in one order and neither waits on the other.
    let writeOrder: [Int]

    /// Routes `schema`'s entities to `members`: each entity to the member whose schema holds it.
    package init(schema: Schema, members: [Member]) {
        self.schema = schema
        self.members = members
        var byEntity: [String: Int] = [:]
        var byTable: [String: Int] = [:]
        for (index, member) in members.enumerated() {
            for entity in member.store.schema.entities { byEntity[entity.name] = index }
            for table in member.store.schema.storedTableNames { byTable[table] = index }
        }
        self.memberByEntity = byEntity
        self.memberByTable = byTable
        self.writeOrder = members.indices.sorted { left, right in
            let (leftStore, rightStore) = (members[left].store, members[right].store)
            if leftStore.holdsTransactionAroundBeforeCommit != rightStore.holdsTransactionAroundBeforeCommit {
                return leftStore.holdsTransactionAroundBeforeCommit
            }
            return (leftStore.identifier, left) < (rightStore.identifier, right)
        }
    }

    /// The first member's identifier (models carry their own store's, see ``storeIdentifier(for:)``).
    package var identifier: String { members[0].store.identifier }

    /// Whether every member refuses saves (a save touching a read-only member is refused by ``save``).
    package var isReadOnly: Bool { members.allSatisfy(\.store.isReadOnly) }

    /// The member stores themselves, each watched for commits on its own.
    package var componentStores: [any PersistentStore] { members.map(\.store) }

    /// The identifier of the store holding `entity`'s rows.
    package func storeIdentifier(for entity: Schema.Entity) -> String {
        store(for: entity).identifier
    }

    /// The position in ``members`` of the store holding `entity`.
    package func memberIndex(for entity: Schema.Entity) -> Int {
        memberByEntity[entity.name] ?? 0
    }

    private func store(for entity: Schema.Entity) -> any PersistentStore {
        members[memberIndex(for: entity)].store
    }

    package func fetch(_ request: StoreFetch, _ body: (any StoreRow) throws -> Void) throws {
        try store(for: request.entity).fetch(request, body)
    }

    package func fetchKeys(_ request: StoreFetch) throws -> [Int64] {
        try store(for: request.entity).fetchKeys(request)
    }

    package func count(_ request: StoreFetch) throws -> Int {
        try store(for: request.entity).count(request)
    }

    package func aggregate(_ request: StoreAggregate) throws -> [[StoredValue]] {
        try store(for: request.entity).aggregate(request)
    }

    package func fetchJoinRows(
        table: String, ownerColumn: String, targetColumn: String, owners: [Int64]
    ) throws -> [(owner: Int64, target: Int64)] {
        try members[memberByTable[table] ?? 0].store.fetchJoinRows(
            table: table, ownerColumn: ownerColumn, targetColumn: targetColumn, owners: owners)
    }

    /// Refused: each member keeps its own history, with its own transaction identifiers and tokens.
    /// - Throws: `StrataError.invalidHistoryRequest` saying how to read one store's history.
    package func fetchHistory(_ request: StoreHistoryFetch) throws -> [StoredHistoryTransaction] {
        throw historyRefusal("read")
    }

    /// Refused, as ``fetchHistory(_:)``.
    /// - Throws: `StrataError.invalidHistoryRequest` saying how to delete one store's history.
    package func deleteHistory(_ request: StoreHistoryFetch) throws {
        throw historyRefusal("delete")
    }

    private func historyRefusal(_ verb: String) -> StrataError {
        let names = members.map { "'\($0.configurationName)'" }.joined(separator: ", ")
        return StrataError.invalidHistoryRequest(
            operation: "\(verb) history",
            reason:
                "the container keeps its models in \(members.count) stores (configurations \(names)), each with its "
                + "own history; \(verb) the history of one of them through a container opened with that "
                + "configuration alone")
    }

    package var runningWatcherCount: Int { members.reduce(0) { $0 + $1.store.runningWatcherCount } }

    package var writtenTransactions: StoreWrittenTransactions? { nil }

    package func close(waitingForWatchers: Bool) {
        for member in members { member.store.close(waitingForWatchers: waitingForWatchers) }
    }

    package func containerWasReleased() {
        for member in members { member.store.containerWasReleased() }
    }

    /// Erases every member that allows saves; a read-only member (a seed store) keeps its rows, as a fresh open
    /// finds them.
    /// - Throws: `StrataError.readOnlyContainer` when every member is read-only; the first member's error
    ///   otherwise (members erased before it stay erased).
    package func eraseAllData() throws {
        guard !isReadOnly else { throw StrataError.readOnlyContainer(operation: "erase") }
        for member in members where !member.store.isReadOnly { try member.store.eraseAllData() }
    }

    package var eraseCount: Int { members.reduce(0) { $0 + $1.store.eraseCount } }
}
