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

    /// The history's change rows, as `SELECT`ed by `columns` in transaction and position order: on SQLite those of
    /// `strata_history_changes` and the lone changes transaction rows hold (layout version 5); on PostgreSQL,
    /// whose transaction rows hold none, those of `strata_history_changes`.
    static func changeRows(_ store: TestStore, columns: String, where condition: String = "true") throws -> [String] {
        let inline =
            store.kind == .sqlite
            ? """
            UNION ALL SELECT id AS "transaction", 0 AS position, kind, entity, "row", count, attributes, keys
            FROM strata_history_transactions WHERE kind IS NOT NULL
            """ : ""
        return try store.texts(
            """
            SELECT \(columns) FROM (SELECT "transaction", position, kind, entity, "row", count, attributes, keys
            FROM strata_history_changes \(inline)) AS history WHERE \(condition) ORDER BY "transaction", position
            """)
    }

    /// SQL making a SQLite store's history as layout `version` (at most 4) wrote it: each transaction's lone
    /// change moved from its row into `strata_history_changes`, the transactions table without the columns that
    /// held it, and `version` recorded.
    static func sqliteHistoryLayout(_ version: Int) -> String {
        let columns = HistoryTables.inlineChangeColumns.map { "\"\($0)\"" }.joined(separator: ", ")
        let drops = HistoryTables.inlineChangeColumns.map {
            "ALTER TABLE strata_history_transactions DROP COLUMN \"\($0)\";"
        }
        return """
            INSERT INTO strata_history_changes ("transaction", position, \(columns))
            SELECT id, 0, \(columns) FROM strata_history_transactions WHERE kind IS NOT NULL;
            \(drops.joined(separator: "\n"))
            UPDATE strata_metadata SET value = json_set(value, '$.history', \(version)) WHERE key = 'model';
            """
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
