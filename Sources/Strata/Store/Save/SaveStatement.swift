/// One statement a save runs, in no particular store's hands: its text, written once per shape for the executor's
/// dialect (so an executor can keep what it prepared by the text's identity), and the values bound to it.
package struct SaveStatement {
    package let sql: SaveSQL
    package let bindings: SaveBindings

    package init(_ sql: SaveSQL, _ bindings: SaveBindings) {
        self.sql = sql
        self.bindings = bindings
    }
}

/// The text of a save's statement, made once per store for each shape (an entity's insert, an update of one set of
/// columns, …) and kept in its ``SaveStatementCache``: a class, so an executor tells two statements of one shape
/// apart from others by identity alone.
package final class SaveSQL: Sendable {
    package let text: String
    /// The entity whose uniqueness constraints a unique violation of this statement names.
    package let entity: Schema.Entity
    /// Whether the statement returns rows (`RETURNING`, `SELECT`).
    package let returnsRows: Bool
    /// Whether the statement is an `INSERT` whose first value is the row's key, which the executor chooses
    /// (``InsertedKeys/assigned``) and binds before the bindings.
    package let assignsKey: Bool
    /// For a checked update, the names of the properties it writes as its history records them
    /// (``Schema/Entity/historyAttributeNames(_:)``), made once with the statement.
    package let historyAttributeNames: String?

    package init(
        _ text: String, entity: Schema.Entity, returnsRows: Bool, assignsKey: Bool = false,
        historyAttributeNames: String? = nil
    ) {
        self.text = text
        self.entity = entity
        self.returnsRows = returnsRows
        self.assignsKey = assignsKey
        self.historyAttributeNames = historyAttributeNames
    }
}

/// The values bound to a save's statement, in placeholder order. The shapes a save runs most (an insert's row, a
/// checked update) keep what they were given, so an executor binding one value at a time builds no array.
package enum SaveBindings {
    case values([StoredValue])
    /// An insert's row: the value of each column (`columns`, property indexes), a foreign key known before the row
    /// exists taking the place of the model's value.
    case row(StoreChanges.Insert, columns: [Int], foreignKeys: [Int: StoredValue])
    /// A checked update: the changed columns' values, then the row's key and the version it must still have.
    case update(ArraySlice<StoreChanges.UpdateColumn>, key: Int64, version: Int64)

    /// Calls `body` with each value and its 0-based position.
    @inline(__always)
    package func forEachValue(_ body: (Int, StoredValue) throws -> Void) rethrows {
        switch self {
        case .values(let values):
            for (offset, value) in values.enumerated() { try body(offset, value) }
        case .row(let insert, let columns, let foreignKeys):
            try insert.values.withUnsafeValues { values in
                for (offset, index) in columns.enumerated() {
                    if !foreignKeys.isEmpty, let foreignKey = foreignKeys[index] {
                        try body(offset, foreignKey)
                    } else {
                        // Passed straight from the buffer, so the value is borrowed rather than copied.
                        try body(offset, index < values.count ? values[index] : .null)
                    }
                }
            }
        case .update(let columns, let key, let version):
            for (offset, column) in columns.enumerated() { try body(offset, column.value) }
            try body(columns.count, .integer(key))
            try body(columns.count + 1, .integer(version))
        }
    }

    /// The values as one array.
    package var array: [StoredValue] {
        switch self {
        case .values(let values): return values
        default:
            var values: [StoredValue] = []
            forEachValue { _, value in values.append(value) }
            return values
        }
    }
}

/// What one statement of a save did, as its executor reports it.
package protocol SaveStatementResult {
    /// How many rows it inserted, updated or deleted.
    var affectedRows: Int { get }
    /// How many rows it returned.
    var count: Int { get }
    /// A returned integer (row and column 0-based).
    func int64(row: Int, column: Int32) -> Int64
    /// A returned value (row and column 0-based).
    func storedValue(row: Int, column: Int32) -> StoredValue
    /// The key of the row an `INSERT` added; `nil` when it added none (a conflict it was told to ignore).
    var insertedKey: Int64? { get }
}

/// How a store gives an inserted row its key. Either way a key is never issued twice in a store, even after its
/// row is deleted.
package enum InsertedKeys {
    /// The engine chooses it (an identity sequence) and the `INSERT` returns it (`RETURNING`).
    case returned
    /// The executor chooses it and binds it as the `INSERT`'s first value (``SaveSQL/assignsKey``).
    case assigned
}

/// What a store supplies to save: it runs statements, one at a time or as a batch, and reports what each did. The
/// order of the statements, the merge policy and the history are ``SaveSequence``'s.
package protocol SaveExecutor: AnyObject {
    associatedtype Dialect: SQLDialect
    associatedtype Result: SaveStatementResult

    /// The SQL spelling of the statements it runs.
    var dialect: Dialect { get }
    /// Appended to the `SELECT` of a row a conflict or an upsert reads: a row lock where the engine has them
    /// (`FOR UPDATE`), so no other transaction changes the row between the read and the write.
    var rowLock: String { get }
    /// How an `INSERT` learns its row's key.
    var insertedKeys: InsertedKeys { get }

    /// Runs `count` statements in order (`statement` asked for each in order; an executor may send many before
    /// reading their results) and calls `result` with each one's result, in order.
    /// - Throws: `StrataError.uniqueConstraintViolation` naming the statement's entity's constraint, what `result`
    ///   throws, or the engine's error; the statements after a failing one did not run.
    func run(_ count: Int, statement: (Int) -> SaveStatement, result: (Int, Result) throws -> Void) throws

    /// Deletes `rows` (``BatchDeleteRows``, whose `FROM` the store's `SelectStatement` spells), returning each
    /// deleted row's key and, in this order, the values of `columns` (column names; none: no values).
    /// - Throws: the engine's error.
    func deleteRows(_ rows: BatchDeleteRows, returning columns: [String]) throws -> SaveDeletedRows
}

/// The rows a batch delete removed: their keys and, per row, the values it was asked to return.
package struct SaveDeletedRows {
    package var keys: [Int64] = []
    /// One array per key (empty when no values were asked for).
    package var values: [[StoredValue]] = []

    package init(keys: [Int64] = [], values: [[StoredValue]] = []) {
        self.keys = keys
        self.values = values
    }
}

extension SaveExecutor {
    /// Runs one statement.
    func run(_ statement: SaveStatement) throws -> Result {
        var outcome: Result?
        try run(1, statement: { _ in statement }, result: { _, result in outcome = result })
        guard let outcome else {
            throw StrataError.storeFailure(operation: "save", reason: "a statement returned no result")
        }
        return outcome
    }
}
