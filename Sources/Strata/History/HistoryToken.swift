import Foundation

/// A position in a store's persistent history: the transactions after it are the changes made since.
///
/// Apps keep the token of the last transaction they processed (tokens are `Codable`) and fetch the history after
/// it next time: `#Predicate<DefaultHistoryTransaction> { $0.token > lastToken }`.
public protocol HistoryToken: Comparable, Codable, Hashable, Identifiable, Sendable {
    /// The token's value as the store represents it.
    associatedtype TokenType: Codable, Hashable, Sendable
    /// The identifier of the store whose history the token is a position in.
    var storeIdentifier: String { get }
    /// The token's value as the store represents it.
    var tokenValue: TokenType? { get }
}

/// The history token of Strata's stores: a store's identifier and the identifier of one of its transactions.
///
/// Transaction identifiers only grow, so tokens of one store compare in commit order; tokens of different stores
/// order by store identifier (they don't describe the same history).
public struct DefaultHistoryToken: HistoryToken {
    /// The token's value: the transaction identifier, keyed by store identifier.
    public typealias TokenType = [String: Int]

    /// The identifier of the store whose history the token is a position in.
    public let storeIdentifier: String
    /// The identifier of the transaction the token stands after.
    package let transactionIdentifier: Int64

    package init(storeIdentifier: String, transactionIdentifier: Int64) {
        self.storeIdentifier = storeIdentifier
        self.transactionIdentifier = transactionIdentifier
    }

    /// The transaction identifier keyed by store identifier.
    public var tokenValue: [String: Int]? { [storeIdentifier: Int(transactionIdentifier)] }

    /// The transaction identifier.
    public var id: Int { Int(transactionIdentifier) }

    /// Whether `lhs` comes before `rhs`: by transaction within one store.
    public static func < (lhs: DefaultHistoryToken, rhs: DefaultHistoryToken) -> Bool {
        if lhs.storeIdentifier != rhs.storeIdentifier { return lhs.storeIdentifier < rhs.storeIdentifier }
        return lhs.transactionIdentifier < rhs.transactionIdentifier
    }
}
