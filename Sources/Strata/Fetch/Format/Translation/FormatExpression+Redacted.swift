import Foundation

extension FormatExpression {
    /// The canonical text with every constant shown as `%@`, for error messages: errors name the entity,
    /// keys and operators but never show bound values (which may be private).
    ///
    /// ```swift
    /// // title CONTAINS[c] "secret" AND priority > 2
    /// expression.redactedFormat // "title CONTAINS[c] %@ AND priority > %@"
    /// ```
    package var redactedFormat: String {
        redacted.predicateFormat
    }

    fileprivate var redacted: FormatExpression {
        switch self {
        case .constant: self
        case .not(let operand): .not(operand.redacted)
        case .and(let members): .and(members.map(\.redacted))
        case .or(let members): .or(members.map(\.redacted))
        case .comparison(let lhs, let op, let rhs, let options, let quantifier):
            .comparison(lhs.redacted, op, rhs.redacted, options: options, quantifier: quantifier)
        case .between(let value, let lower, let upper):
            .between(value.redacted, lower: lower.redacted, upper: upper.redacted)
        }
    }
}

extension FormatOperand {
    /// The operand with constants replaced by a `%@` placeholder (printed verbatim as a key).
    fileprivate var redacted: FormatOperand {
        switch self {
        case .keyPath, .evaluatedObject, .variable, .variableKeyPath: self
        case .value: .keyPath(["%@"])
        case .aggregate(let members): .aggregate(members.map(\.redacted))
        case .subquery(let collection, let variable, let predicate):
            .subquery(collection: collection.redacted, variable: variable, predicate: predicate.redacted)
        case .collectionOperation(let base, let op, let path): .collectionOperation(base.redacted, op, path)
        case .arithmetic(let lhs, let op, let rhs): .arithmetic(lhs.redacted, op, rhs.redacted)
        case .function(let name, let arguments): .function(name, arguments.map(\.redacted))
        }
    }
}
