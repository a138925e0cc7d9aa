import Synchronization

/// A store's save statements by shape, kept from one save to the next: a save of shapes saved before (the one
/// changed property of an editor's every tap) neither builds nor renders SQL, and the executor is handed the same
/// ``SaveSQL`` whose statement it prepared last time. Saves may run at once on a store with several connections,
/// so lookups are locked. A store's dialect, row lock and key assignment never change, so neither does a shape's text.
package final class SaveStatementCache: Sendable {
    /// The most shapes kept; past it the cache starts over (a shape is an entity and a set of changed columns, so
    /// an app changing many combinations of properties could otherwise grow it without bound).
    static let limit = 1_024

    private let statements = Mutex<[Key: SaveSQL]>([:])
    /// The checked update saved last and the property indexes it writes: a save of the same shape (an editor's
    /// every tap) takes it without building the shape's key and hashing it.
    private let lastCheckedUpdate = Mutex<(sql: SaveSQL, columns: [Int])?>(nil)

    package init() {}

    /// A statement's shape: what it does, to which table, with which columns. The entity's identity is unique for as
    /// long as the statement is kept: the ``SaveSQL`` holds the entity.
    struct Key: Hashable, Sendable {
        let kind: Kind
        let entity: ObjectIdentifier
        var columns: [Int] = []
        var name: String = ""
    }

    enum Kind: Hashable, Sendable {
        case insert(ignoringConflicts: Bool)
        case checkedUpdate
        case update(returningVersion: Bool)
        case delete(checked: Bool, returning: Bool)
        case storedRow
        case uniqueRow(nulls: [Bool])
        case foreignKey
        case joinInsert
        case joinDelete
    }

    /// How many shapes are kept.
    package var count: Int { statements.withLock { $0.count } }

    /// The checked update saved last, when it updates `entity`'s rows writing `columns`' properties.
    func lastCheckedUpdate(
        of entity: Schema.Entity, writing columns: ArraySlice<StoreChanges.UpdateColumn>
    ) -> SaveSQL? {
        lastCheckedUpdate.withLock { last in
            guard let last, last.sql.entity === entity, columns.writes(last.columns) else { return nil }
            return last.sql
        }
    }

    /// Keeps `sql`, a checked update writing the properties at `columns`, as the one saved last.
    func noteCheckedUpdate(_ sql: SaveSQL, columns: [Int]) {
        lastCheckedUpdate.withLock { $0 = (sql, columns) }
    }

    subscript(key: Key) -> SaveSQL? {
        get { statements.withLock { $0[key] } }
        set {
            statements.withLock { cached in
                if cached.count >= Self.limit { cached.removeAll() }
                cached[key] = newValue
            }
        }
    }
}
