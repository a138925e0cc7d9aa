import Foundation

/// Persistent history at the store boundary: what a store records and answers, in store-neutral terms.
///
/// A store that records history (SQLite does; a PostgreSQL store follows the same contract) writes, in the same
/// database transaction as each save's data, one transaction record — an identifier that only ever grows, the
/// time, the context's author, the program and process — and one change record per inserted, updated or deleted
/// row (entity name, primary key, the updated properties' names, the deleted row's `.preserveValueOnDeletion`
/// values). `PersistentStore.fetchHistory(_:)` reads them back and `PersistentStore.deleteHistory(_:)` removes them; a
/// request reading after a transaction throws `StrataError.historyTokenExpired` when a newer transaction it would have
/// returned was deleted (`HistoryDeletionMarks`).
package struct StoreHistoryFetch: Sendable {
    /// Conditions every transaction must meet (all of them).
    package var conditions: [StoreHistoryCondition] = []
    /// Newest first instead of oldest first (the order is always by transaction identifier, or by time).
    package var order: StoreHistoryOrder = .transaction(ascending: true)
    /// The most transactions to return.
    package var limit: Int?
    /// Whether the transactions' changes are read (a token lookup needs none).
    package var includesChanges = true

    package init(
        conditions: [StoreHistoryCondition] = [], order: StoreHistoryOrder = .transaction(ascending: true),
        limit: Int? = nil
    ) {
        self.conditions = conditions
        self.order = order
        self.limit = limit
    }
}

/// How a history fetch orders transactions.
package enum StoreHistoryOrder: Sendable, Equatable {
    case transaction(ascending: Bool)
    case timestamp(ascending: Bool)
}

/// One condition on a history transaction.
package enum StoreHistoryCondition: Sendable, Equatable {
    /// Compares the transaction identifier with a value.
    case transaction(StoreHistoryComparison, Int64)
    /// Compares the transaction's time with a date.
    case timestamp(StoreHistoryComparison, Date)
    /// The author is (`equal: true`) or is not the given one; `nil` stands for no author.
    case author(equal: Bool, String?)
    /// Never true (a token of another store, compared for equality).
    case never
}

/// A comparison of a transaction's field (on the left) with a value.
package enum StoreHistoryComparison: String, Sendable, Equatable {
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    case equal = "="
    case notEqual = "<>"

    /// The comparison with its sides swapped (`5 < x` is `x > 5`).
    package var swapped: StoreHistoryComparison {
        switch self {
        case .less: .greater
        case .lessOrEqual: .greaterOrEqual
        case .greater: .less
        case .greaterOrEqual: .lessOrEqual
        case .equal, .notEqual: self
        }
    }
}

/// A history transaction as a store records it.
package struct StoredHistoryTransaction: Sendable {
    package var identifier: Int64
    package var timestamp: Date
    package var author: String?
    package var bundleIdentifier: String
    package var processIdentifier: String
    package var changes: [StoredHistoryChange]

    package init(
        identifier: Int64, timestamp: Date, author: String?, bundleIdentifier: String, processIdentifier: String,
        changes: [StoredHistoryChange] = []
    ) {
        self.identifier = identifier
        self.timestamp = timestamp
        self.author = author
        self.bundleIdentifier = bundleIdentifier
        self.processIdentifier = processIdentifier
        self.changes = changes
    }
}

/// One change of a stored history transaction.
package struct StoredHistoryChange: Sendable {
    package enum Kind: Sendable {
        case insert
        /// An update, with the names of the properties it changed.
        case update([String])
        /// A deletion, with the preserved values of the deleted row by property name.
        case delete([String: StoredValue])
    }

    package var kind: Kind
    package var entityName: String
    package var primaryKey: Int64
    /// The change's position within its transaction.
    package var position: Int64

    package init(kind: Kind, entityName: String, primaryKey: Int64, position: Int64) {
        self.kind = kind
        self.entityName = entityName
        self.primaryKey = primaryKey
        self.position = position
    }
}
