import Foundation

extension FormatExpression {
    /// The canonical format-language text of the tree; parsing it yields an equal tree.
    ///
    /// Keywords are upper-case, comparisons use `==`/`!=`/`<=`/`>=`, and parentheses appear only
    /// where the tree's shape needs them (an `AND` or `OR` inside an `AND` or `NOT`, an `OR` inside
    /// an `OR`).
    package var predicateFormat: String {
        switch self {
        case .constant(let value):
            return value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .not(let operand):
            return "NOT " + operand.memberFormat(parenthesizingAnd: true)
        case .and(let members):
            return members.map { $0.memberFormat(parenthesizingAnd: true) }.joined(separator: " AND ")
        case .or(let members):
            // AND binds tighter than OR, so only nested ORs need parentheses to keep their shape.
            return members.map { $0.memberFormat(parenthesizingAnd: false) }.joined(separator: " OR ")
        case .comparison(let lhs, let op, let rhs, let options, let quantifier):
            let prefix = quantifier.map { $0.rawValue + " " } ?? ""
            return prefix + lhs.predicateFormat + " " + op.rawValue + options.predicateFormat
                + " " + rhs.predicateFormat
        case .between(let value, let lower, let upper):
            return value.predicateFormat + " BETWEEN {" + lower.predicateFormat + ", "
                + upper.predicateFormat + "}"
        }
    }

    /// The text of this expression as a member of `AND`, `OR` or `NOT`: an `OR` is always
    /// parenthesised, an `AND` when `parenthesizingAnd`.
    private func memberFormat(parenthesizingAnd: Bool) -> String {
        switch self {
        case .or: "(" + predicateFormat + ")"
        case .and where parenthesizingAnd: "(" + predicateFormat + ")"
        default: predicateFormat
        }
    }
}

extension ComparisonOptions {
    /// `""`, `"[c]"`, `"[d]"` or `"[cd]"`.
    var predicateFormat: String {
        guard !isEmpty else { return "" }
        return "[" + (contains(.caseInsensitive) ? "c" : "") + (contains(.diacriticInsensitive) ? "d" : "") + "]"
    }
}

extension FormatOperand {
    /// The canonical format-language text of the operand.
    ///
    /// Keys spelled like reserved words print as `#key`. Keys from `%K` that are not identifiers
    /// (for example `"a; DROP"`) print verbatim and do not parse back.
    package var predicateFormat: String {
        switch self {
        case .keyPath(let components):
            return Self.keyPathText(components)
        case .evaluatedObject:
            return "SELF"
        case .value(let value):
            return value.predicateFormat
        case .aggregate(let members):
            return "{" + members.map(\.predicateFormat).joined(separator: ", ") + "}"
        case .variable(let name):
            return "$" + name
        case .variableKeyPath(let name, let components):
            return "$" + name + "." + Self.keyPathText(components)
        case .subquery(let collection, let variable, let predicate):
            return "SUBQUERY(" + collection.predicateFormat + ", $" + variable + ", "
                + predicate.predicateFormat + ")"
        case .collectionOperation(let base, let op, let path):
            let head = base == .evaluatedObject ? op.rawValue : base.predicateFormat + "." + op.rawValue
            return path.isEmpty ? head : head + "." + Self.keyPathText(path)
        case .arithmetic(let lhs, let op, let rhs):
            return lhs.arithmeticMemberFormat + " " + op.rawValue + " " + rhs.arithmeticMemberFormat
        case .function(let name, let arguments):
            return name + "(" + arguments.map(\.predicateFormat).joined(separator: ", ") + ")"
        }
    }

    private var arithmeticMemberFormat: String {
        if case .arithmetic = self { return "(" + predicateFormat + ")" }
        return predicateFormat
    }

    private static func keyPathText(_ components: [String]) -> String {
        components.map { FormatKeyword.isReserved($0) ? "#" + $0 : $0 }.joined(separator: ".")
    }
}
