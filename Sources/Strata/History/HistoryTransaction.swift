import Foundation

/// One save recorded in a store's persistent history: who made it, when, and what it changed.
public protocol HistoryTransaction: Hashable, Identifiable, Sendable {
    /// The type of ``token``.
    associatedtype TokenType: Comparable, Hashable, Identifiable, Sendable
    /// The type of ``transactionIdentifier``.
    associatedtype TransactionIdentifier: Comparable, Hashable, Sendable
    /// The `author` of the context that saved, if it had one.
    var author: String? { get }
    /// The models the save inserted, updated and deleted, in the order the store wrote them.
    var changes: [HistoryChange] { get }
    /// The identifier of the store the save was written to.
    var storeIdentifier: String { get }
    /// When the save was committed.
    var timestamp: Date { get }
    /// The position in the history right after this transaction: keep it to fetch what comes next.
    var token: TokenType { get }
    /// Identifies the transaction within its store; later transactions have greater identifiers.
    var transactionIdentifier: TransactionIdentifier { get }
}

/// A save recorded in the history of a Strata store.
///
/// ```swift
/// var descriptor = HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token > lastToken })
/// for transaction in try context.fetchHistory(descriptor) {
///     for change in transaction.changes { … }
///     lastToken = transaction.token
/// }
/// ```
public struct DefaultHistoryTransaction: HistoryTransaction {
    /// The type of ``token``.
    public typealias TokenType = DefaultHistoryToken
    /// The type of ``transactionIdentifier``.
    public typealias TransactionIdentifier = Int64

    /// The identifier of the store the save was written to.
    public let storeIdentifier: String
    /// The program that saved: its bundle identifier where Foundation knows one, else its process name.
    public let bundleIdentifier: String
    /// The process identifier (pid) of the process that saved.
    public let processIdentifier: String
    /// Identifies the transaction within its store; later transactions have greater identifiers.
    public let transactionIdentifier: Int64
    /// The position in the history right after this transaction.
    public let token: DefaultHistoryToken
    /// The `author` of the context that saved, if it had one.
    public let author: String?
    /// The models the save inserted, updated and deleted, in the order the store wrote them (deletes, updates,
    /// inserts, then relationship changes). Changes to models of entities the container's schema doesn't have
    /// are left out.
    public let changes: [HistoryChange]
    /// When the save was committed.
    public let timestamp: Date

    /// The transaction identifier.
    public var id: Int64 { transactionIdentifier }

    package init(
        storeIdentifier: String, bundleIdentifier: String, processIdentifier: String, transactionIdentifier: Int64,
        author: String?, changes: [HistoryChange], timestamp: Date
    ) {
        self.storeIdentifier = storeIdentifier
        self.bundleIdentifier = bundleIdentifier
        self.processIdentifier = processIdentifier
        self.transactionIdentifier = transactionIdentifier
        self.token = DefaultHistoryToken(storeIdentifier: storeIdentifier, transactionIdentifier: transactionIdentifier)
        self.author = author
        self.changes = changes
        self.timestamp = timestamp
    }

    /// Whether both are the same transaction of the same store.
    public static func == (lhs: DefaultHistoryTransaction, rhs: DefaultHistoryTransaction) -> Bool {
        lhs.storeIdentifier == rhs.storeIdentifier && lhs.transactionIdentifier == rhs.transactionIdentifier
    }

    /// Hashes the store and transaction identifiers.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(storeIdentifier)
        hasher.combine(transactionIdentifier)
    }
}

/// What to fetch (or delete) from a store's history: the transactions a predicate selects, in an order, up to a
/// limit.
///
/// Predicates comparing `token`, `transactionIdentifier` or `timestamp` with a value, or `author` with a string
/// (or `nil`), joined with `&&`, run in the store. Any other predicate is evaluated in memory over the
/// transactions its store-run part selects; a sort other than by `token`, `transactionIdentifier` or
/// `timestamp` is applied in memory too (the limit after it).
public struct HistoryDescriptor<TransactionType: HistoryTransaction>: Sendable {
    /// Selects the transactions; `nil` selects all of them.
    public var predicate: Predicate<TransactionType>?
    /// The order of the transactions; empty means oldest first.
    public var sortBy: [SortDescriptor<TransactionType>]
    /// The most transactions to fetch; 0 (the default) fetches all of them.
    public var fetchLimit: UInt64

    /// A descriptor of the transactions `predicate` selects, oldest first.
    public init(predicate: Predicate<TransactionType>? = nil) {
        self.init(predicate: predicate, sortBy: [])
    }

    /// A descriptor of the transactions `predicate` selects, in the order `sortBy` gives.
    public init(predicate: Predicate<TransactionType>? = nil, sortBy: [SortDescriptor<TransactionType>] = []) {
        self.predicate = predicate
        self.sortBy = sortBy
        self.fetchLimit = 0
    }
}
