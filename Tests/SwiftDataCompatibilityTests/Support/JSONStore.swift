import Foundation
import SwiftData

/// A custom store as Apple's WWDC24 sample writes one: every model's snapshot in one JSON file, read whole on
/// every fetch, filtering and sorting left to the container.
final class JSONStoreConfiguration: DataStoreConfiguration {
    typealias Store = JSONStore

    var name: String
    var schema: Schema?
    var fileURL: URL
    /// Makes the next save throw before anything is written (a full disk, a lost connection).
    var failsNextSave = false

    init(name: String, schema: Schema? = nil, fileURL: URL) {
        self.name = name
        self.schema = schema
        self.fileURL = fileURL
    }

    static func == (lhs: JSONStoreConfiguration, rhs: JSONStoreConfiguration) -> Bool {
        lhs.name == rhs.name
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(name)
    }
}

struct JSONStoreFailure: Error {}

final class JSONStore: DataStore {
    typealias Configuration = JSONStoreConfiguration
    typealias Snapshot = DefaultSnapshot

    var configuration: JSONStoreConfiguration
    var name: String
    var schema: Schema
    var identifier: String
    /// How many fetch requests reached the store.
    var fetchCount = 0
    /// The store's own history: one transaction per save (see `JSONStore: HistoryProviding`).
    var history: [JSONHistoryTransaction] = []

    init(_ configuration: JSONStoreConfiguration, migrationPlan: (any SchemaMigrationPlan.Type)?) throws {
        self.configuration = configuration
        self.name = configuration.name
        self.schema = configuration.schema!
        self.identifier = configuration.fileURL.lastPathComponent
    }

    func save(
        _ request: DataStoreSaveChangesRequest<DefaultSnapshot>
    ) throws -> DataStoreSaveChangesResult<DefaultSnapshot> {
        var remappedIdentifiers = [PersistentIdentifier: PersistentIdentifier]()
        var stored = try self.read()

        for snapshot in request.inserted {
            let permanentIdentifier = try PersistentIdentifier.identifier(
                for: identifier, entityName: snapshot.persistentIdentifier.entityName, primaryKey: UUID())
            let permanentSnapshot = snapshot.copy(persistentIdentifier: permanentIdentifier)
            stored[permanentIdentifier] = permanentSnapshot
            remappedIdentifiers[snapshot.persistentIdentifier] = permanentIdentifier
        }
        for snapshot in request.updated {
            stored[snapshot.persistentIdentifier] = snapshot
        }
        for snapshot in request.deleted {
            stored[snapshot.persistentIdentifier] = nil
        }
        if configuration.failsNextSave {
            configuration.failsNextSave = false
            throw JSONStoreFailure()
        }
        try self.write(stored)
        history.append(
            JSONHistoryTransaction(
                transactionIdentifier: (history.last?.transactionIdentifier ?? 0) + 1,
                author: request.editingState.author, storeIdentifier: identifier,
                savedModels: request.inserted.count + request.updated.count + request.deleted.count))
        return DataStoreSaveChangesResult<DefaultSnapshot>(
            for: self.identifier, remappedIdentifiers: remappedIdentifiers)
    }

    func fetch<T>(_ request: DataStoreFetchRequest<T>) throws -> DataStoreFetchResult<T, DefaultSnapshot>
    where T: PersistentModel {
        fetchCount += 1
        if request.descriptor.predicate != nil {
            throw DataStoreError.preferInMemoryFilter
        } else if request.descriptor.sortBy.count > 0 {
            throw DataStoreError.preferInMemorySort
        }
        let everything = try read()
        return DataStoreFetchResult(
            descriptor: request.descriptor, fetchedSnapshots: Array(everything.values), relatedSnapshots: everything)
    }

    func read() throws -> [PersistentIdentifier: DefaultSnapshot] {
        if FileManager.default.fileExists(atPath: configuration.fileURL.path(percentEncoded: false)) {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            let snapshots = try decoder.decode(
                [DefaultSnapshot].self, from: try Data(contentsOf: configuration.fileURL))
            return Dictionary(snapshots.map { ($0.persistentIdentifier, $0) }, uniquingKeysWith: { _, last in last })
        } else {
            return [:]
        }
    }

    func write(_ snapshots: [PersistentIdentifier: DefaultSnapshot]) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(Array(snapshots.values)).write(to: configuration.fileURL, options: .atomic)
    }
}
