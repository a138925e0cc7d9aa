import Foundation

extension FormatExpression {
    /// The deepest tree (counting expression and operand nodes) a ``FormatPredicate`` holds.
    /// Parsed trees stay well below it (the parser caps nesting at ``FormatParser/maximumDepth``);
    /// the cap stops compounds built in code from growing without bound, keeping every recursive
    /// walk (printing, hashing, translation) shallow.
    package static let maximumTreeDepth = 4 * FormatParser.maximumDepth

    /// Whether the tree is deeper than `limit` nodes. Recurses at most `limit + 1` levels.
    func exceedsDepth(_ limit: Int) -> Bool {
        guard limit > 0 else { return true }
        switch self {
        case .constant:
            return false
        case .not(let operand):
            return operand.exceedsDepth(limit - 1)
        case .and(let members), .or(let members):
            return members.contains { $0.exceedsDepth(limit - 1) }
        case .comparison(let lhs, _, let rhs, _, _):
            return lhs.exceedsDepth(limit - 1) || rhs.exceedsDepth(limit - 1)
        case .between(let value, let lower, let upper):
            return [value, lower, upper].contains { $0.exceedsDepth(limit - 1) }
        }
    }
}

extension FormatOperand {
    /// Whether the operand tree is deeper than `limit` nodes.
    func exceedsDepth(_ limit: Int) -> Bool {
        guard limit > 0 else { return true }
        switch self {
        case .keyPath, .evaluatedObject, .value, .variable, .variableKeyPath:
            return false
        case .aggregate(let members), .function(_, let members):
            return members.contains { $0.exceedsDepth(limit - 1) }
        case .subquery(let collection, _, let predicate):
            return collection.exceedsDepth(limit - 1) || predicate.exceedsDepth(limit - 1)
        case .collectionOperation(let base, _, _):
            return base.exceedsDepth(limit - 1)
        case .arithmetic(let lhs, _, let rhs):
            return lhs.exceedsDepth(limit - 1) || rhs.exceedsDepth(limit - 1)
        }
    }
}
