import Foundation

/// One change of a history transaction: a model inserted, updated or deleted.
public enum HistoryChange: Sendable {
    /// A model was inserted.
    case insert(any HistoryInsert)
    /// A model's properties changed.
    case update(any HistoryUpdate)
    /// A model was deleted.
    case delete(any HistoryDelete)

    /// The identifier of the model the change is about.
    public var changedPersistentIdentifier: PersistentIdentifier {
        switch self {
        case .insert(let insert): insert.changedPersistentIdentifier
        case .update(let update): update.changedPersistentIdentifier
        case .delete(let delete): delete.changedPersistentIdentifier
        }
    }
}

/// An insertion recorded in the history.
public protocol HistoryInsert<Model>: Sendable {
    /// The inserted model's class.
    associatedtype Model: PersistentModel
    /// The type of ``changeIdentifier``.
    associatedtype ChangeIdentifier: Comparable, Hashable, Sendable
    /// The type of ``transactionIdentifier``.
    associatedtype TransactionIdentifier: Comparable, Hashable, Sendable
    /// Identifies the change among all of the store's changes.
    var changeIdentifier: ChangeIdentifier { get }
    /// The inserted model's identifier.
    var changedPersistentIdentifier: PersistentIdentifier { get }
    /// The transaction the change belongs to.
    var transactionIdentifier: TransactionIdentifier { get }
}

/// An update recorded in the history, naming the properties it changed.
public protocol HistoryUpdate<Model>: Sendable {
    /// The updated model's class.
    associatedtype Model: PersistentModel
    /// The type of ``changeIdentifier``.
    associatedtype ChangeIdentifier: Comparable, Hashable, Sendable
    /// The type of ``transactionIdentifier``.
    associatedtype TransactionIdentifier: Comparable, Hashable, Sendable
    /// A key path of one updated property.
    typealias PropertyUpdate = PartialKeyPath<Model> & Sendable
    /// Identifies the change among all of the store's changes.
    var changeIdentifier: ChangeIdentifier { get }
    /// The updated model's identifier.
    var changedPersistentIdentifier: PersistentIdentifier { get }
    /// The transaction the change belongs to.
    var transactionIdentifier: TransactionIdentifier { get }
    /// The key paths of the properties (attributes and relationships) the update changed.
    var updatedAttributes: [any PartialKeyPath<Model> & Sendable] { get }
}

/// A deletion recorded in the history, with the values of the deleted model's `.preserveValueOnDeletion`
/// attributes.
public protocol HistoryDelete<Model>: Sendable {
    /// The deleted model's class.
    associatedtype Model: PersistentModel
    /// The type of ``changeIdentifier``.
    associatedtype ChangeIdentifier: Comparable, Hashable, Sendable
    /// The type of ``transactionIdentifier``.
    associatedtype TransactionIdentifier: Comparable, Hashable, Sendable
    /// Identifies the change among all of the store's changes.
    var changeIdentifier: ChangeIdentifier { get }
    /// The deleted model's identifier.
    var changedPersistentIdentifier: PersistentIdentifier { get }
    /// The transaction the change belongs to.
    var transactionIdentifier: TransactionIdentifier { get }
    /// The values the deleted model's `@Attribute(.preserveValueOnDeletion)` properties held.
    var tombstone: HistoryTombstone<Model> { get }
}

/// Identifies a change of a Strata store: its transaction's identifier in the high 32 bits, its position within
/// the transaction in the low 32, so changes compare in commit order.
private func historyChangeIdentifier(transaction: Int64, position: Int64) -> Int64 {
    transaction << 32 | (position & 0xFFFF_FFFF)
}

/// An insertion in the history of a Strata store.
public struct DefaultHistoryInsert<Model: PersistentModel>: HistoryInsert, Hashable {
    /// Identifies the change: its transaction's identifier in the high 32 bits, its position in the low 32.
    public let changeIdentifier: Int64
    /// The inserted model's identifier.
    public let changedPersistentIdentifier: PersistentIdentifier
    /// The transaction the change belongs to.
    public let transactionIdentifier: Int64

    package init(transaction: Int64, position: Int64, identifier: PersistentIdentifier) {
        self.changeIdentifier = historyChangeIdentifier(transaction: transaction, position: position)
        self.changedPersistentIdentifier = identifier
        self.transactionIdentifier = transaction
    }
}

/// An update in the history of a Strata store.
public struct DefaultHistoryUpdate<Model: PersistentModel>: HistoryUpdate, Hashable {
    /// A key path of one updated property.
    public typealias PropertyUpdate = PartialKeyPath<Model> & Sendable
    /// Identifies the change: its transaction's identifier in the high 32 bits, its position in the low 32.
    public let changeIdentifier: Int64
    /// The updated model's identifier.
    public let changedPersistentIdentifier: PersistentIdentifier
    /// The transaction the change belongs to.
    public let transactionIdentifier: Int64
    /// The key paths of the properties the update changed (properties the model no longer has are left out).
    public var updatedAttributes: [any PartialKeyPath<Model> & Sendable] { keyPaths.paths.map(\.assumedSendable) }
    private let keyPaths: KeyPaths

    /// The updated properties' key paths: stored properties' key paths, never changed, so safe to share.
    private struct KeyPaths: Hashable, @unchecked Sendable {
        let paths: [PartialKeyPath<Model>]
    }

    package init(
        transaction: Int64, position: Int64, identifier: PersistentIdentifier,
        updatedAttributes: [PartialKeyPath<Model>]
    ) {
        self.changeIdentifier = historyChangeIdentifier(transaction: transaction, position: position)
        self.changedPersistentIdentifier = identifier
        self.transactionIdentifier = transaction
        self.keyPaths = KeyPaths(paths: updatedAttributes)
    }
}

/// A deletion in the history of a Strata store.
public struct DefaultHistoryDelete<Model: PersistentModel>: HistoryDelete, Hashable {
    /// Identifies the change: its transaction's identifier in the high 32 bits, its position in the low 32.
    public let changeIdentifier: Int64
    /// The deleted model's identifier.
    public let changedPersistentIdentifier: PersistentIdentifier
    /// The transaction the change belongs to.
    public let transactionIdentifier: Int64
    /// The values of the deleted model's `.preserveValueOnDeletion` attributes.
    public let tombstone: HistoryTombstone<Model>

    package init(
        transaction: Int64, position: Int64, identifier: PersistentIdentifier, tombstone: HistoryTombstone<Model>
    ) {
        self.changeIdentifier = historyChangeIdentifier(transaction: transaction, position: position)
        self.changedPersistentIdentifier = identifier
        self.transactionIdentifier = transaction
        self.tombstone = tombstone
    }

    /// Whether both describe the same change.
    public static func == (lhs: DefaultHistoryDelete<Model>, rhs: DefaultHistoryDelete<Model>) -> Bool {
        lhs.changeIdentifier == rhs.changeIdentifier
            && lhs.changedPersistentIdentifier == rhs.changedPersistentIdentifier
    }

    /// Hashes the change's identifiers.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(changeIdentifier)
        hasher.combine(changedPersistentIdentifier)
    }
}
