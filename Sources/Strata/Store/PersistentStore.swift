/// The boundary between contexts and a storage engine: a store runs fetches and saves that contexts describe
/// in store-neutral terms (entities, `QueryExpression`s, `StoredValue`s). A store knows nothing about contexts.
package protocol PersistentStore: ModelBackingDataStore {
    /// The schema the store holds.
    var schema: Schema { get }
    /// A stable identifier of the store, recorded in it when it was created.
    var identifier: String { get }
    /// Whether saves are refused.
    var isReadOnly: Bool { get }
    /// Runs a fetch, calling `body` once per row, in order. Column 0 is the primary key; columns 1… are the
    /// entity's attributes in `StoreFetch.columns` order.
    func fetch(_ request: StoreFetch, _ body: (any StoreRow) throws -> Void) throws
    /// The primary keys of the rows a fetch selects, in its order; its columns are not read. A store answers it
    /// through ``fetch(_:_:)`` unless it has a cheaper way.
    func fetchKeys(_ request: StoreFetch) throws -> [Int64]
    /// Counts the rows a fetch would return.
    func count(_ request: StoreFetch) throws -> Int
    /// Runs an aggregate fetch: one row per group, its keys then its aggregate columns (see ``StoreAggregate``).
    /// - Throws: `StrataError.storeFailure` when the query fails; `StrataError.invalidAggregate` from a store that
    ///   can't total in place.
    func aggregate(_ request: StoreAggregate) throws -> [[StoredValue]]
    /// The rows of a join table whose owner column holds one of `owners`, ordered by owner and then target.
    func fetchJoinRows(
        table: String, ownerColumn: String, targetColumn: String, owners: [Int64]
    ) throws -> [(owner: Int64, target: Int64)]
    /// Writes a set of changes in one transaction, calling `beforeCommit` once every change is written and before
    /// the transaction commits: when it throws, the transaction rolls back and the error is rethrown (how a save
    /// spanning several stores commits all of them or none). A store that can't hold its transaction open around
    /// the call (a third-party `DataStore`) calls it before writing anything.
    /// - Returns: the primary key given to each insert, in order.
    func save(
        _ changes: StoreChanges, mergePolicy: MergePolicy, beforeCommit: () throws -> Void
    ) throws -> StoreSaveResult
    /// Reads the persistent history the request selects, in its order (see ``StoreHistoryFetch`` for what a store
    /// records with every save).
    /// - Throws: `StrataError.historyTokenExpired` when the request starts after a transaction older than
    ///   history already deleted; `StrataError.storeFailure`.
    func fetchHistory(_ request: StoreHistoryFetch) throws -> [StoredHistoryTransaction]
    /// Deletes the history transactions the request selects, with their changes, and remembers the newest one
    /// deleted so later requests starting before it are refused as expired.
    /// - Throws: `StrataError.readOnlyContainer`, `StrataError.storeFailure`.
    func deleteHistory(_ request: StoreHistoryFetch) throws
    /// Starts a watcher of commits made elsewhere (see ``StoreCommitObserver``); `false` when the store has none.
    func watchCommits(reportingTo observer: any StoreCommitObserver) -> Bool
    /// How many of the store's commit watcher threads are running now (0 once the store is closed).
    var runningWatcherCount: Int { get }
    /// The history transactions this store wrote while watched (see ``StoreWrittenTransactions``).
    var writtenTransactions: StoreWrittenTransactions? { get }
    /// Closes the store once its container is closed or released: stops its commit watchers (waiting until they
    /// are gone with `waitingForWatchers`), lets the operation in progress finish, writes out what it buffers (an
    /// SQLite log) and closes its files or connections. Later operations throw `StrataError.storeClosed`;
    /// closing twice does nothing.
    func close(waitingForWatchers: Bool)
    /// Its container was released: stops the commit watchers and writes out what the store buffers (an SQLite
    /// log), so the store's files alone hold every row; models still referenced keep reading through the store,
    /// which closes when the last of them goes.
    func containerWasReleased()
    /// Removes every model's rows, every join row and the whole history (tokens taken before then expire) in one
    /// transaction, and what the store keeps beside them (an SQLite store's log and the backups it made before
    /// migrating), leaving the store as a fresh open leaves it.
    /// - Throws: `StrataError.readOnlyContainer`, `StrataError.storeClosed`, `StrataError.storeFailure`.
    func eraseAllData() throws
    /// How many times ``eraseAllData()`` ran: a context that saw another count drops the models it registered.
    var eraseCount: Int { get }
    /// The stores this one is made of, each with its own commit watcher and history: itself, unless it routes
    /// entities to several (``RoutedStore``).
    var componentStores: [any PersistentStore] { get }
    /// Whether ``save(_:mergePolicy:beforeCommit:)`` calls `beforeCommit` inside its open transaction (so a
    /// failure there rolls the store's share back), rather than before writing anything.
    var holdsTransactionAroundBeforeCommit: Bool { get }
}

extension PersistentStore {
    package var componentStores: [any PersistentStore] { [self] }

    package func fetchKeys(_ request: StoreFetch) throws -> [Int64] {
        var keys: [Int64] = []
        var keysOnly = request
        keysOnly.columns = nil
        try fetch(keysOnly) { row in keys.append(row.int64(at: 0)) }
        return keys
    }
    package var holdsTransactionAroundBeforeCommit: Bool { true }

    /// Writes a set of changes in one transaction.
    /// - Returns: the primary key given to each insert, in order.
    package func save(_ changes: StoreChanges, mergePolicy: MergePolicy) throws -> StoreSaveResult {
        try save(changes, mergePolicy: mergePolicy, beforeCommit: {})
    }
}

extension Schema {
    /// Every table holding the schema's models: one per entity, then the join tables, each named once.
    package var storedTableNames: [String] {
        var names = entities.map(\.name)
        var seen = Set(names)
        for entity in entities {
            for index in entity.relationshipInfos.keys.sorted() {
                guard case .joinTable(let table, _, _)? = entity.relationshipInfos[index]?.storage else { continue }
                if seen.insert(table).inserted { names.append(table) }
            }
        }
        return names
    }
}

/// One row of a fetch, read column by column.
package protocol StoreRow {
    func int64(at column: Int32) -> Int64
    func storedValue(at column: Int32) -> StoredValue
    /// Reads columns 1… into `values`: column `offset + 1` at `values[columns.columns[offset].index]`. Every slot
    /// those indexes name holds `NULL`, as a new model's values start, which the reader may initialize over
    /// (`ValueSlots.initialize(_:to:)`) without destroying it first; `values` holds at least
    /// `columns.requiredValueCount` values. Returns whether every value read passes its property on its storage
    /// classes (`columns.columns[offset].passing`), so that only a row with one that doesn't is checked value by
    /// value; a row that can't tell as it reads returns `columns.admitAll(in:)`. With `columns.readsVersion`, the
    /// row's version is read into `version` in the same call (a second dynamic call per row otherwise).
    func readValues(
        _ columns: StoreRowColumns, into values: ValueSlots, version: inout Int64
    ) -> Bool
}

extension StoreRow {
    /// The row's version (`Z_OPT`), read after `count` requested columns: every fetch that reads columns reads
    /// the version last.
    @inline(__always) package func version(afterColumns count: Int) -> Int64 {
        int64(at: Int32(count + 1))
    }
}

/// Changes a context asks a store to write in one transaction.
package struct StoreChanges {
    package struct Insert {
        package var entity: Schema.Entity
        /// The inserted model's values, read while the store writes the row.
        package var values: ModelBackingData.Values
    }
    package struct Update {
        package var entity: Schema.Entity
        package var primaryKey: Int64
        /// The row's version when the model was read; the update applies only while the row still has it.
        package var version: Int64
        /// The model's values, under `.overwrite` only (which writes all of them when the row changed elsewhere).
        package var values: ModelBackingData.Values?
        /// Where the changed properties are in ``StoreChanges/updateColumns``, by ascending property index.
        package var columns: Range<Int>
        /// The saved foreign key of each changed to-one relationship stored in this row, by property index. The new
        /// keys are written by ``StoreChanges/foreignKeyUpdates``; the update checks and bumps the row's version
        /// for them even when no attribute changed, as Core Data does for a relationship-only change.
        package var savedForeignKeys: [Int: StoredValue] = [:]
        /// The changed relationships of this row stored in join tables, by property index. Their rows are written
        /// by ``StoreChanges/joinInserts`` and ``StoreChanges/joinDeletes``; the update checks and bumps the row's
        /// version for them, so a relationship changed elsewhere meanwhile is a conflict like any other change.
        package var joinRelationships: [Int] = []
    }
    package struct Delete {
        package var entity: Schema.Entity
        package var primaryKey: Int64
        /// The row's version when the model was read.
        package var version: Int64
    }
    package struct BatchDelete {
        package var entity: Schema.Entity
        package var condition: QueryExpression?
        /// The version each row of the entity the context holds was read at, by key (under `.error` only): a row
        /// the batch deletes whose version moved since was changed elsewhere, a conflict like any other.
        package var readVersions: [Int64: Int64] = [:]

        package init(entity: Schema.Entity, condition: QueryExpression?) {
            self.entity = entity
            self.condition = condition
        }
    }

    /// A row written by this save (`inserted`, by position in `inserts`) or already stored.
    package enum RowReference: Hashable {
        case stored(Int64)
        case inserted(Int)
    }
    /// Sets a to-one foreign key once every insert has its primary key.
    package struct ForeignKeyUpdate {
        package var entity: Schema.Entity
        package var row: RowReference
        package var column: String
        package var target: RowReference?
    }
    /// Adds (or removes) one row of a join table.
    package struct JoinChange {
        package var table: String
        package var ownerColumn: String
        package var targetColumn: String
        package var owner: RowReference
        package var target: RowReference
        /// The owner's entity and the relationship the row stands for (recorded as an update of the owner).
        package var entity: Schema.Entity
        package var relationship: String
    }

    package var inserts: [Insert] = []
    package var foreignKeyUpdates: [ForeignKeyUpdate] = []
    package var joinInserts: [JoinChange] = []
    package var joinDeletes: [JoinChange] = []
    package var updates: [Update] = []
    /// The changed properties of every update, one range per update: kept together so a save of many changed
    /// models doesn't allocate an array for each.
    package var updateColumns: [UpdateColumn] = []
    package var deletes: [Delete] = []
    package var batchDeletes: [BatchDelete] = []
    /// The saving context's `author`, recorded with the save's history transaction.
    package var author: String?
    /// Statements the save runs before its writes, each of which must change one row (``StoreSaveCondition``).
    package var conditions: [StoreSaveCondition] = []

    package init() {}

    /// One changed property of an update: its index and new value. (A struct, not a tuple: arrays of tuples are
    /// freed through the runtime's generic tuple destroy.)
    package struct UpdateColumn {
        package let index: Int
        package let value: StoredValue
        /// The value the context read (the property's saved value), to tell which properties changed elsewhere.
        package let saved: StoredValue

        package init(index: Int, value: StoredValue, saved: StoredValue) {
            self.index = index
            self.value = value
            self.saved = saved
        }
    }

    package var isEmpty: Bool { inserts.isEmpty && updates.isEmpty && deletes.isEmpty && batchDeletes.isEmpty }
}

/// What a save did.
package struct StoreSaveResult {
    /// The primary key of each insert, in order (an upsert reports the existing row's key).
    package var insertedKeys: [Int64] = []
    /// The rows each batch delete removed, in order.
    package var batchDeletedKeys: [[Int64]] = []
    /// The rows the batch deletes removed because they referred to deleted rows through a foreign key whose
    /// delete rule cascades (``BatchDeleteRows/cascades``).
    package var cascadeDeletedKeys: [CascadeDeleted] = []
    /// The stored version of each row an upsert updated, by insert position.
    package var upsertedVersions: [Int: Int64] = [:]
    /// The rows changed elsewhere that the merge policy resolved (not `.error`, which throws).
    package var resolvedConflicts: [ResolvedConflict] = []

    package init() {}

    /// Rows of one entity a batch delete removed by cascade, in key order.
    package struct CascadeDeleted {
        package var entity: Schema.Entity
        package var keys: [Int64]

        package init(entity: Schema.Entity, keys: [Int64]) {
            self.entity = entity
            self.keys = keys
        }
    }

    /// How a conflict was resolved: the model takes the stored values of its attributes except `kept`, and the
    /// row's version is `version` now.
    package struct ResolvedConflict {
        package var entity: Schema.Entity
        package var primaryKey: Int64
        /// The row's values by property index, as stored before this save wrote it.
        package var storedValues: [StoredValue]
        /// The property indexes whose values the model keeps (written by this save).
        package var kept: Set<Int>
        package var version: Int64

        package init(
            entity: Schema.Entity, primaryKey: Int64, storedValues: [StoredValue], kept: Set<Int>, version: Int64
        ) {
            self.entity = entity
            self.primaryKey = primaryKey
            self.storedValues = storedValues
            self.kept = kept
            self.version = version
        }
    }
}

/// How a save resolves a conflict (Core Data's `NSMergePolicy`, under its Swift names): an inserted model with
/// the same unique value as a stored one, or a changed or deleted model whose row another context or process saved
/// after this context read it (each row carries a version, checked in the statement that writes the row).
///
/// SwiftData's default merges property by property with the context's values winning. For changed rows:
/// - `.mergeByPropertyObjectTrump`: the properties this context changed are written; the row's other properties
///   keep what the other writer stored, and the model takes those values.
/// - `.mergeByPropertyStoreTrump`: the properties the other writer changed keep the stored value (the model takes
///   it); this context's other changes are written.
/// - `.overwrite`: all of the model's properties are written, replacing the other writer's changes.
/// - `.rollback`: nothing of the model is written; it takes the stored values, discarding its changes.
/// - `.error`: the save throws `StrataError.mergeConflict` naming every model in conflict and writes nothing.
///
/// A row deleted elsewhere stays deleted (a change to it is dropped) under every policy but `.error`. A model
/// deleted here whose row changed elsewhere is deleted under every policy but `.error`: a deletion has no
/// properties to merge.
public enum MergePolicy: Sendable, Hashable {
    /// Update the stored model with the inserted model's values (SwiftData's behaviour; the default), and write a
    /// changed model's changed properties over a row changed elsewhere (`NSMergeByPropertyObjectTrumpMergePolicy`).
    case mergeByPropertyObjectTrump
    /// Throw and save nothing: `StrataError.uniqueConstraintViolation` for a duplicate unique value,
    /// `StrataError.mergeConflict` for rows changed elsewhere since they were read (`NSErrorMergePolicy`).
    ///
    /// After a conflict the context keeps its changes; read the rows again (a fresh `ModelContext` is simplest)
    /// and redo the change:
    /// ```swift
    /// context.mergePolicy = .error
    /// do { try context.save() } catch StrataError.mergeConflict(let conflicts) { /* fetch again, redo, save */ }
    /// ```
    case error
    /// Keep the stored value of every property changed elsewhere, write this context's other changes
    /// (`NSMergeByPropertyStoreTrumpMergePolicy`).
    case mergeByPropertyStoreTrump
    /// Write the whole model, replacing whatever was stored (`NSOverwriteMergePolicy`).
    case overwrite
    /// Keep the whole stored row and discard the model's changes (`NSRollbackMergePolicy`).
    case rollback
}

/// Limits shared by stores and contexts.
package enum StoreLimits {
    /// The most keys bound in one `IN (…)` list.
    package static let keysPerStatement = 500
}
