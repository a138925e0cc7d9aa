import Synchronization

/// A store's rendered fetch statements, by the fetch they were rendered for: an app runs the same fetch again and
/// again (a list read on every appearance, live results re-running their query after a save), and building and
/// rendering a statement costs more than reading a page of 50 rows from an index. A fetch seen before is looked up
/// by its value — entity, columns, condition with its values, sort keys, limits, filtered and excluded keys — and
/// runs with the same text and bindings, which the store's statement cache then finds prepared. A fetch that starts
/// after a key (``StoreFetch/startAfterKey``, each page of `enumerate` in key order) is looked up without the key,
/// which is bound in the kept statement's place for it (``StoreFetch/startAfterKeyBinding``): every page runs
/// one statement.
///
/// Rendering is a pure function of the fetch and the store's dialect, which never changes, so a hit returns exactly
/// what rendering would. Fetches may run at once on a store with several connections, so lookups are locked.
package final class FetchStatementCache: Sendable {
    /// The most fetches kept; past it the cache starts over, so fetches with ever-changing values (a search field's
    /// text) can't grow it without bound.
    static let limit = 256
    /// Fetches filtered by more keys than this are not kept: they load a batch of models by key once (a batched
    /// fetch's batch, a relationship's destinations), and their keys would make most of the cache's memory.
    static let keyLimit = 64

    /// What the statement reads.
    package enum Purpose: Hashable, Sendable {
        /// The rows (`PersistentStore.fetch`).
        case rows
        /// The primary keys only (`PersistentStore.fetchKeys`).
        case keys
        /// The number of rows (`PersistentStore.count`).
        case count
    }

    /// A statement's text and the values bound to it.
    package typealias Rendered = (sql: String, bindings: [StoredValue])

    private let statements = Mutex<[Key: Entry]>([:])

    package init() {}

    /// The statement of `fetch` for `purpose`, rendered by `render` the first time (and whenever the fetch is one
    /// the cache doesn't keep).
    ///
    /// - Throws: what `render` throws; nothing is kept then.
    package func statement(
        for fetch: StoreFetch, purpose: Purpose, render: (StoreFetch) throws -> Rendered
    ) rethrows -> Rendered {
        guard Self.isKept(fetch) else { return try render(fetch) }
        let key = Key(fetch, purpose: purpose)
        if let entry = statements.withLock({ $0[key] }) {
            guard let startAfterKey = fetch.startAfterKey else { return entry.rendered }
            var bindings = entry.rendered.bindings
            bindings[StoreFetch.startAfterKeyBinding] = .integer(startAfterKey)
            return (entry.rendered.sql, bindings)
        }
        let rendered = try render(fetch)
        // A statement whose start key isn't where it is replaced would run every key as this one: not kept.
        let position = StoreFetch.startAfterKeyBinding
        if let startAfterKey = fetch.startAfterKey,
            !rendered.bindings.indices.contains(position) || rendered.bindings[position] != .integer(startAfterKey)
        {
            return rendered
        }
        statements.withLock { kept in
            if kept.count >= Self.limit { kept.removeAll() }
            kept[key] = Entry(rendered: rendered, entity: fetch.entity)
        }
        return rendered
    }

    /// How many statements are kept.
    package var count: Int { statements.withLock { $0.count } }

    private static func isKept(_ fetch: StoreFetch) -> Bool {
        (fetch.keyFilter?.keys.count ?? 0) <= keyLimit && fetch.excludedKeys.count <= 4 * keyLimit
    }

    /// Everything the statement's text and bindings depend on, but the start key's value, which is bound in its
    /// place on every run. The entity's identity is unique for as long as the statement is kept: the ``Entry``
    /// holds the entity.
    ///
    /// Values compare as Swift compares them, which is not always what they bind as: `"é"` equals `"e\u{301}"`
    /// and `0.0` equals `-0.0`, yet the store sees other bytes. So the key also holds every text value's UTF-8 and
    /// every floating-point value's bits, and a fetch finds only a statement binding exactly its own values.
    private struct Key: Hashable, Sendable {
        let purpose: Purpose
        let entity: ObjectIdentifier
        let columns: [Int]?
        let condition: QueryExpression?
        let startsAfterKey: Bool
        let keyFilterColumn: String?
        let keyFilterKeys: [Int64]
        let excludedKeys: SortedKeys
        let ordering: [QueryOrdering]
        let limit: Int?
        let offset: Int?
        let exactValues: [ExactValue]

        init(_ fetch: StoreFetch, purpose: Purpose) {
            self.purpose = purpose
            entity = ObjectIdentifier(fetch.entity)
            columns = fetch.columns
            condition = fetch.condition
            startsAfterKey = fetch.startAfterKey != nil
            keyFilterColumn = fetch.keyFilter?.column
            keyFilterKeys = fetch.keyFilter?.keys ?? []
            excludedKeys = fetch.excludedKeys
            ordering = fetch.ordering
            limit = fetch.limit
            offset = fetch.offset
            var exact: [ExactValue] = []
            func note(_ value: StoredValue) {
                switch value {
                case .text(let text): exact.append(.text(Array(text.utf8)))
                case .real(let number): exact.append(.real(number.bitPattern))
                case .null, .integer, .blob: break
                }
            }
            fetch.condition?.forEachValue(note)
            for ordering in fetch.ordering { ordering.expression.forEachValue(note) }
            exactValues = exact
        }
    }

    /// A value as the store receives it, where Swift's equality is looser (see ``Key``).
    private enum ExactValue: Hashable, Sendable {
        case text([UInt8])
        case real(UInt64)
    }

    private struct Entry: Sendable {
        let rendered: Rendered
        /// Keeps the entity, so its identity in the key names no other entity while the entry lives.
        let entity: Schema.Entity
    }
}
