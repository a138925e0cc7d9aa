import Foundation
import StrataTestSupport

@testable import Strata

/// A trip whose name outlives its deletion in the history.
@Model final class HistoryTrip {
    @Attribute(.preserveValueOnDeletion) var name: String
    var destination: String
    var nights: Int
    var planner: HistoryPlanner?

    init(name: String, destination: String, nights: Int = 1) {
        self.name = name
        self.destination = destination
        self.nights = nights
    }
}

/// Plans trips (a to-many relationship whose inverse is a foreign key).
@Model final class HistoryPlanner {
    var name: String
    @Relationship(inverse: \HistoryTrip.planner) var trips: [HistoryTrip] = []

    init(name: String) { self.name = name }
}

enum HistoryFixtures {
    /// A new store of `kind` (SQLite in memory, or a PostgreSQL schema of its own).
    static func container(_ kind: StoreKind) throws -> ModelContainer {
        try freshContainer(kind, HistoryTrip.self, HistoryPlanner.self)
    }

    /// Every transaction of the store, oldest first.
    static func history(_ context: ModelContext) throws -> [DefaultHistoryTransaction] {
        try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
    }

    /// The transactions after `token`.
    static func history(after token: DefaultHistoryToken, _ context: ModelContext) throws -> [DefaultHistoryTransaction]
    {
        try context.fetchHistory(
            HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token > token }))
    }

    /// A change's kind and the primary key it names: `"insert 3"`.
    static func describe(_ change: HistoryChange) -> String {
        let key = change.changedPersistentIdentifier.primaryKey.map(String.init) ?? "?"
        switch change {
        case .insert: return "insert \(change.changedPersistentIdentifier.entityName) \(key)"
        case .update(let update):
            let names =
                (update as? DefaultHistoryUpdate<HistoryTrip>)?.updatedAttributes.map { name(of: $0) }
                ?? (update as? DefaultHistoryUpdate<HistoryPlanner>)?.updatedAttributes.map { name(of: $0) } ?? []
            return "update \(change.changedPersistentIdentifier.entityName) \(key) \(names.joined(separator: ","))"
        case .delete: return "delete \(change.changedPersistentIdentifier.entityName) \(key)"
        }
    }

    private static func name(of keyPath: AnyKeyPath) -> String {
        switch keyPath {
        case \HistoryTrip.name: "name"
        case \HistoryTrip.destination: "destination"
        case \HistoryTrip.nights: "nights"
        case \HistoryTrip.planner: "planner"
        case \HistoryPlanner.name: "name"
        case \HistoryPlanner.trips: "trips"
        default: "?"
        }
    }
}
