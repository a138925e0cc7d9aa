import Foundation

extension FormatExpression {
    /// The tree with free `$variables` named in `values` replaced by constants. Variables bound
    /// by an enclosing `SUBQUERY` are left alone; a `{…}` aggregate that becomes all-constant
    /// folds into an array value.
    package func substituting(_ values: [String: FormatValue]) -> FormatExpression {
        substituting(values, bound: [])
    }

    fileprivate func substituting(_ values: [String: FormatValue], bound: Set<String>) -> FormatExpression {
        switch self {
        case .constant:
            return self
        case .not(let operand):
            return .not(operand.substituting(values, bound: bound))
        case .and(let members):
            return .and(members.map { $0.substituting(values, bound: bound) })
        case .or(let members):
            return .or(members.map { $0.substituting(values, bound: bound) })
        case .comparison(let lhs, let op, let rhs, let options, let quantifier):
            return .comparison(
                lhs.substituting(values, bound: bound), op, rhs.substituting(values, bound: bound),
                options: options, quantifier: quantifier)
        case .between(let value, let lower, let upper):
            return .between(
                value.substituting(values, bound: bound),
                lower: lower.substituting(values, bound: bound),
                upper: upper.substituting(values, bound: bound))
        }
    }

    /// The first variable, in reading order, that is neither substituted nor bound by an
    /// enclosing `SUBQUERY`; `nil` when every variable is accounted for.
    package var firstUnboundVariable: String? {
        firstUnboundVariable(bound: [])
    }

    fileprivate func firstUnboundVariable(bound: Set<String>) -> String? {
        switch self {
        case .constant:
            return nil
        case .not(let operand):
            return operand.firstUnboundVariable(bound: bound)
        case .and(let members), .or(let members):
            return members.lazy.compactMap { $0.firstUnboundVariable(bound: bound) }.first
        case .comparison(let lhs, _, let rhs, _, _):
            return lhs.firstUnboundVariable(bound: bound) ?? rhs.firstUnboundVariable(bound: bound)
        case .between(let value, let lower, let upper):
            return value.firstUnboundVariable(bound: bound) ?? lower.firstUnboundVariable(bound: bound)
                ?? upper.firstUnboundVariable(bound: bound)
        }
    }
}

extension FormatOperand {
    fileprivate func substituting(_ values: [String: FormatValue], bound: Set<String>) -> FormatOperand {
        switch self {
        case .keyPath, .evaluatedObject, .value, .variableKeyPath:
            return self
        case .variable(let name):
            guard !bound.contains(name), let value = values[name] else { return self }
            return .value(value)
        case .aggregate(let members):
            let substituted = members.map { $0.substituting(values, bound: bound) }
            var constants: [FormatValue] = []
            for member in substituted {
                guard case .value(let value) = member else { return .aggregate(substituted) }
                constants.append(value)
            }
            return .value(.array(constants))
        case .subquery(let collection, let variable, let predicate):
            return .subquery(
                collection: collection.substituting(values, bound: bound), variable: variable,
                predicate: predicate.substituting(values, bound: bound.union([variable])))
        case .collectionOperation(let base, let op, let path):
            return .collectionOperation(base.substituting(values, bound: bound), op, path)
        case .arithmetic(let lhs, let op, let rhs):
            return .arithmetic(lhs.substituting(values, bound: bound), op, rhs.substituting(values, bound: bound))
        case .function(let name, let arguments):
            return .function(name, arguments.map { $0.substituting(values, bound: bound) })
        }
    }

    fileprivate func firstUnboundVariable(bound: Set<String>) -> String? {
        switch self {
        case .keyPath, .evaluatedObject, .value:
            return nil
        case .variable(let name), .variableKeyPath(let name, _):
            return bound.contains(name) ? nil : name
        case .aggregate(let members), .function(_, let members):
            return members.lazy.compactMap { $0.firstUnboundVariable(bound: bound) }.first
        case .subquery(let collection, let variable, let predicate):
            return collection.firstUnboundVariable(bound: bound)
                ?? predicate.firstUnboundVariable(bound: bound.union([variable]))
        case .collectionOperation(let base, _, _):
            return base.firstUnboundVariable(bound: bound)
        case .arithmetic(let lhs, _, let rhs):
            return lhs.firstUnboundVariable(bound: bound) ?? rhs.firstUnboundVariable(bound: bound)
        }
    }
}
