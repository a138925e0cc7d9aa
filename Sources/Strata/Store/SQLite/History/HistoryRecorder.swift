import Foundation

/// Records one save's history inside the save's own SQLite transaction: the transaction row first, then a row
/// per change as the writer makes it (so a failed save, rolled back, leaves no history either).
///
/// Cheap by construction: the three statements are prepared once per connection (the connection caches them by
/// text) and bound straight from the writer's values; an update's list of changed property names is built once
/// per run of updates of the same columns by the caller; nothing is allocated per change.
struct HistoryRecorder {
    let connection: SQLiteConnection
    /// The transaction identifier of the save being recorded.
    let transaction: Int64
    /// The position of the next change within the transaction.
    private(set) var position: Int64 = 0
    private let changeStatement: SQLiteStatement
    /// Where each update was recorded (only kept when a save also changes relationships, whose names join the
    /// row's update).
    private var updatePositions: [RowKey: Int64] = [:]
    private let tracksUpdatePositions: Bool
    /// Relationship changes of stored rows, in the order first noted, and where each row's entry is.
    private var pendingRelationships: [(entity: Schema.Entity, row: Int64, names: [String])] = []
    private var relationshipChanges: [RowKey: Int] = [:]
    /// The run of changes being gathered: same kind, entity and attributes at consecutive positions, written as one
    /// row with its keys (``HistoryKeyList``, left out when they are consecutive).
    private var run: Run?

    private struct Run {
        let kind: HistoryTables.Kind
        let entity: Schema.Entity
        let first: Int64
        var count: Int64
        var keys: HistoryKeyList
        let attributes: String?
        let position: Int64
    }

    private struct RowKey: Hashable {
        let entity: ObjectIdentifier
        let row: Int64
    }

    /// Writes the transaction row.
    /// - Parameter tracksRelationshipUpdates: whether updates of foreign keys follow, merging into earlier updates.
    init(connection: SQLiteConnection, dialect: SQLiteDialect, author: String?, tracksRelationshipUpdates: Bool) throws {
        self.connection = connection
        let quote = dialect.quote(identifier:)
        try connection.run(
            "INSERT INTO \(quote(HistoryTables.transactions)) (\(quote("timestamp")), \(quote("author")), \(quote("bundle")), \(quote("process"))) VALUES (?, ?, ?, ?)",
            [.real(Date().timeIntervalSinceReferenceDate), author.map { .text($0) } ?? .null,
             .text(StoredHistoryTransaction.currentBundleIdentifier), .text(StoredHistoryTransaction.currentProcessIdentifier)])
        self.transaction = connection.lastInsertRowID
        self.changeStatement = try connection.prepare(
            "INSERT INTO \(quote(HistoryTables.changes)) (\(quote("transaction")), \(quote("position")), \(quote("kind")), "
                + "\(quote("entity")), \(quote("row")), \(quote("count")), \(quote("attributes")), \(quote("keys"))) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
        self.tracksUpdatePositions = tracksRelationshipUpdates
    }

    /// Records an insert, an update (with its changed properties' names, comma-separated) or a delete.
    /// - Returns: the change's position.
    /// A change that continues the current run (same kind, entity and attributes, any row) extends it; any other
    /// ends it. Updates are recorded one by one when relationship names may join them later.
    @discardableResult
    mutating func record(_ kind: HistoryTables.Kind, _ entity: Schema.Entity, row: Int64, attributes: String? = nil) throws -> Int64 {
        let current = position
        position += 1
        if run?.kind == kind, run?.entity === entity, run?.attributes == attributes {
            run?.count += 1
            run?.keys.append(row)
            return current
        }
        try flush()
        run = Run(kind: kind, entity: entity, first: row, count: 1, keys: HistoryKeyList(first: row), attributes: attributes, position: current)
        if tracksUpdatePositions, kind == .update {
            updatePositions[RowKey(entity: ObjectIdentifier(entity), row: row)] = current
            try flush()
        }
        return current
    }

    /// Writes the current run.
    mutating func flush() throws {
        guard let run else { return }
        self.run = nil
        defer { changeStatement.reset() }
        try changeStatement.bind(.integer(transaction), at: 1)
        try changeStatement.bind(.integer(run.position), at: 2)
        try changeStatement.bind(.integer(run.kind.rawValue), at: 3)
        try changeStatement.bind(.text(run.entity.name), at: 4)
        try changeStatement.bind(.integer(run.first), at: 5)
        try changeStatement.bind(.integer(run.count), at: 6)
        try changeStatement.bind(run.attributes.map { .text($0) } ?? .null, at: 7)
        try changeStatement.bind(run.keys.stored.map { .blob($0) } ?? .null, at: 8)
        _ = try changeStatement.step()
    }

    /// Notes that a relationship of a stored row changed (its foreign key or join-table rows); written by
    /// ``recordRelationshipChanges()`` once the save's relationships are written.
    mutating func noteRelationshipChange(_ entity: Schema.Entity, row: Int64, name: String) {
        let key = RowKey(entity: ObjectIdentifier(entity), row: row)
        if let index = relationshipChanges[key] {
            if !pendingRelationships[index].names.contains(name) { pendingRelationships[index].names.append(name) }
            return
        }
        relationshipChanges[key] = pendingRelationships.count
        pendingRelationships.append((entity, row, [name]))
    }

    /// Records the noted relationship changes: each joins the row's update in this transaction, or is recorded as
    /// an update of its own.
    mutating func recordRelationshipChanges() throws {
        try flush()
        for (entity, row, names) in pendingRelationships {
            let list = names.joined(separator: ",")
            if let existing = updatePositions[RowKey(entity: ObjectIdentifier(entity), row: row)] {
                try connection.run(
                    "UPDATE \"\(HistoryTables.changes)\" SET \"attributes\" = CASE WHEN \"attributes\" IS NULL OR \"attributes\" = '' "
                        + "THEN ?1 ELSE \"attributes\" || ',' || ?1 END WHERE \"transaction\" = ?2 AND \"position\" = ?3",
                    [.text(list), .integer(transaction), .integer(existing)])
            } else {
                try record(.update, entity, row: row, attributes: list)
            }
        }
        pendingRelationships.removeAll()
        relationshipChanges.removeAll()
        try flush()
    }

    /// Records the preserved values of a deleted row (its `.preserveValueOnDeletion` attributes) at the delete's
    /// position: `values` are the entity's `preservedPropertyIndexes`' values, in that order.
    func recordTombstone(_ entity: Schema.Entity, position: Int64, values: [StoredValue]) throws {
        guard !values.isEmpty else { return }
        let statement = try connection.prepare(
            "INSERT INTO \"\(HistoryTables.tombstones)\" (\"transaction\", \"position\", \"name\", \"value\") VALUES (?, ?, ?, ?)")
        for (index, value) in zip(entity.preservedPropertyIndexes, values) {
            defer { statement.reset() }
            try statement.bind(.integer(transaction), at: 1)
            try statement.bind(.integer(position), at: 2)
            try statement.bind(.text(entity.properties[index].name), at: 3)
            try statement.bind(value, at: 4)
            _ = try statement.step()
        }
    }
}

extension Schema.Entity {
    /// The names of the properties at `indexes`, comma-separated: an update's changed properties as history
    /// records them.
    package func historyAttributeNames<Indexes: Sequence<Int>>(_ indexes: Indexes) -> String {
        indexes.map { properties[$0].name }.joined(separator: ",")
    }
}
