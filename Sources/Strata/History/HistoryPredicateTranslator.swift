import Foundation

/// Turns the parts of a `Predicate<DefaultHistoryTransaction>` a store can run into `StoreHistoryCondition`s:
/// `token`, `transactionIdentifier` and `timestamp` compared with a value (`<`, `<=`, `>`, `>=`, `==`, `!=`),
/// `author` compared with a string or `nil` (`==`, `!=`), and `&&` of these. Whatever else a predicate holds makes
/// the translation incomplete: the store's conditions then select a superset, and the whole predicate is
/// evaluated in memory over it (see `HistoryDescriptor`).
struct HistoryPredicateTranslator {
    let variable: PredicateExpressions.VariableID
    let storeIdentifier: String

    /// What a subtree translates to: conditions (all must hold) and whether they mean exactly the subtree.
    struct Translation {
        var conditions: [StoreHistoryCondition]
        var isComplete: Bool

        static let untranslated = Translation(conditions: [], isComplete: false)
    }

    /// Translates a whole predicate.
    /// - Throws: `StrataError.historyTokenExpired` when a bound on `token` is a token of another store.
    static func translate(
        _ predicate: Predicate<DefaultHistoryTransaction>, storeIdentifier: String
    ) throws -> Translation {
        let translator = HistoryPredicateTranslator(variable: predicate.variable.key, storeIdentifier: storeIdentifier)
        return try translator.translate(predicate.expression)
    }

    func translate(_ expression: Any) throws -> Translation {
        guard let node = expression as? any HistoryConditionNode else { return .untranslated }
        return try node.historyTranslation(with: self)
    }

    /// The condition comparing `lhs` with `rhs` (one of them a transaction field, the other a constant), if any.
    func comparison(_ lhs: Any, _ comparison: StoreHistoryComparison, _ rhs: Any) throws -> Translation {
        if let field = field(lhs), let constant = PredicateTranslator.constantValue(of: rhs) {
            return try condition(field, comparison, constant.value)
        }
        if let field = field(rhs), let constant = PredicateTranslator.constantValue(of: lhs) {
            return try condition(field, comparison.swapped, constant.value)
        }
        return .untranslated
    }

    private func field(_ expression: Any) -> HistoryField? {
        (expression as? any HistoryFieldNode)?.historyField(variable: variable)
    }

    private func condition(
        _ field: HistoryField, _ comparison: StoreHistoryComparison, _ value: Any
    ) throws -> Translation {
        let unwrapped: Any? = (value as? any OptionalProtocol).map { $0.wrappedValue } ?? value
        switch field {
        case .token:
            guard let token = unwrapped as? DefaultHistoryToken else { return .untranslated }
            guard token.storeIdentifier == storeIdentifier else {
                switch comparison {
                case .equal: return Translation(conditions: [.never], isComplete: true)
                case .notEqual: return Translation(conditions: [], isComplete: true)
                default:
                    throw StrataError.historyTokenExpired(
                        storeIdentifier: token.storeIdentifier, transaction: token.transactionIdentifier,
                        reason:
                            "the token belongs to store \(token.storeIdentifier), not to this store (\(storeIdentifier))"
                    )
                }
            }
            return Translation(conditions: [.transaction(comparison, token.transactionIdentifier)], isComplete: true)
        case .transactionIdentifier:
            guard let identifier = unwrapped as? Int64 else { return .untranslated }
            return Translation(conditions: [.transaction(comparison, identifier)], isComplete: true)
        case .timestamp:
            guard let date = unwrapped as? Date else { return .untranslated }
            return Translation(conditions: [.timestamp(comparison, date)], isComplete: true)
        case .author:
            guard comparison == .equal || comparison == .notEqual else { return .untranslated }
            if unwrapped == nil {
                return Translation(conditions: [.author(equal: comparison == .equal, nil)], isComplete: true)
            }
            guard let author = unwrapped as? String else { return .untranslated }
            return Translation(conditions: [.author(equal: comparison == .equal, author)], isComplete: true)
        }
    }
}

/// The transaction fields a store can filter on.
enum HistoryField {
    case token
    case transactionIdentifier
    case timestamp
    case author
}

/// A predicate node a history predicate can translate (conjunction, comparison, equality).
protocol HistoryConditionNode {
    func historyTranslation(
        with translator: HistoryPredicateTranslator
    ) throws -> HistoryPredicateTranslator.Translation
}

/// A predicate node that may read a transaction field (`$0.token`).
protocol HistoryFieldNode {
    func historyField(variable: PredicateExpressions.VariableID) -> HistoryField?
}

extension PredicateExpressions.KeyPath: HistoryFieldNode
where Root == PredicateExpressions.Variable<DefaultHistoryTransaction> {
    func historyField(variable: PredicateExpressions.VariableID) -> HistoryField? {
        guard root.key == variable else { return nil }
        switch keyPath as AnyKeyPath {
        case \DefaultHistoryTransaction.token: return .token
        case \DefaultHistoryTransaction.transactionIdentifier: return .transactionIdentifier
        case \DefaultHistoryTransaction.timestamp: return .timestamp
        case \DefaultHistoryTransaction.author: return .author
        default: return nil
        }
    }
}

extension PredicateExpressions.Conjunction: HistoryConditionNode {
    func historyTranslation(
        with translator: HistoryPredicateTranslator
    ) throws -> HistoryPredicateTranslator.Translation {
        // Each side's conditions must hold, whatever the other side translates to.
        let left = try translator.translate(lhs)
        let right = try translator.translate(rhs)
        return .init(conditions: left.conditions + right.conditions, isComplete: left.isComplete && right.isComplete)
    }
}

extension PredicateExpressions.Comparison: HistoryConditionNode {
    func historyTranslation(
        with translator: HistoryPredicateTranslator
    ) throws -> HistoryPredicateTranslator.Translation {
        let comparison: StoreHistoryComparison =
            switch op {
            case .lessThan: .less
            case .lessThanOrEqual: .lessOrEqual
            case .greaterThan: .greater
            case .greaterThanOrEqual: .greaterOrEqual
            }
        return try translator.comparison(lhs, comparison, rhs)
    }
}

extension PredicateExpressions.Equal: HistoryConditionNode {
    func historyTranslation(
        with translator: HistoryPredicateTranslator
    ) throws -> HistoryPredicateTranslator.Translation {
        try translator.comparison(lhs, .equal, rhs)
    }
}

extension PredicateExpressions.NotEqual: HistoryConditionNode {
    func historyTranslation(
        with translator: HistoryPredicateTranslator
    ) throws -> HistoryPredicateTranslator.Translation {
        try translator.comparison(lhs, .notEqual, rhs)
    }
}
