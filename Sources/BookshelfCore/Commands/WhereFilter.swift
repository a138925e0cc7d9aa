import Foundation
import Strata

// TEMPORARY — remove when `FetchDescriptor` accepts `FormatPredicate`.
//
// `--where 'FORMAT'` is parsed by Strata's format-string parser (so errors carry its position and caret) and then
// evaluated here, in Swift, over each fetched record's property values. Only what a command line needs is
// supported: AND / OR / NOT, TRUEPREDICATE / FALSEPREDICATE, comparisons of a property with a constant
// (==, !=, <, <=, >, >=, BEGINSWITH, ENDSWITH, CONTAINS, LIKE, IN, BETWEEN, with [c] and [d]). Anything else is
// refused with `CommandError.unsupportedWhere`. When format predicates reach the store, replace
// `WhereFilter.apply` with `FetchDescriptor(predicate: FormatPredicate(format:))` and delete this file.

/// A parsed `--where` clause, applied to records in memory.
struct WhereFilter {
    private let expression: FormatExpression

    /// Parses `format`.
    ///
    /// - Throws: `CommandError.invalidWhere` with the parser's message and a caret under the offending spot.
    init(format: String) throws(CommandError) {
        do {
            expression = try FormatPredicate.parse(format: format).resolvedExpression()
        } catch {
            throw .invalidWhere(error.description)
        }
    }

    /// The records the clause accepts, in their order.
    ///
    /// - Throws: `CommandError.unsupportedWhere` naming what can't be evaluated (an unknown property included).
    func apply<Row: Record>(_ rows: [Row]) throws(CommandError) -> [Row] {
        var kept: [Row] = []
        for row in rows where try Self.evaluate(expression, row.formatValues) {
            kept.append(row)
        }
        return kept
    }

    private static func evaluate(_ expression: FormatExpression, _ values: [String: FormatValue]) throws(CommandError) -> Bool {
        switch expression {
        case .constant(let value):
            return value
        case .not(let inner):
            return try !evaluate(inner, values)
        case .and(let parts):
            for part in parts where try !evaluate(part, values) { return false }
            return true
        case .or(let parts):
            for part in parts where try evaluate(part, values) { return true }
            return false
        case .comparison(let left, let comparison, let right, let options, let quantifier):
            guard quantifier == nil else { throw .unsupportedWhere("ANY / ALL / NONE") }
            return try compare(operand(left, values), comparison, operand(right, values), options: options)
        case .between(let value, let lower, let upper):
            let value = try operand(value, values)
            guard try compare(value, .greaterOrEqual, operand(lower, values), options: []) else { return false }
            return try compare(value, .lessOrEqual, operand(upper, values), options: [])
        }
    }

    private static func operand(_ operand: FormatOperand, _ values: [String: FormatValue]) throws(CommandError) -> FormatValue {
        switch operand {
        case .value(let value):
            return value
        case .keyPath(let path):
            let name = path.joined(separator: ".")
            guard let value = values[name] else {
                throw .unsupportedWhere("unknown property '\(name)' (known: \(values.keys.sorted().joined(separator: ", ")))")
            }
            return value
        case .aggregate(let items):
            var array: [FormatValue] = []
            for item in items { array.append(try self.operand(item, values)) }
            return .array(array)
        default:
            throw .unsupportedWhere("only properties and constants can be compared")
        }
    }

    private static func compare(_ left: FormatValue, _ comparison: ComparisonOperator, _ right: FormatValue,
                                options: ComparisonOptions) throws(CommandError) -> Bool {
        if comparison == .in {
            guard case .array(let items) = right else { throw .unsupportedWhere("IN needs a list on its right") }
            for item in items where try compare(left, .equal, item, options: options) { return true }
            return false
        }
        if case .string(let lhs) = left, case .string(let rhs) = right {
            return try compareText(normalized(lhs, options), comparison, normalized(rhs, options))
        }
        guard let order = order(left, right) else {
            if comparison == .equal { return left == right }
            if comparison == .notEqual { return left != right }
            throw .unsupportedWhere("can't compare \(left) with \(right) using \(comparison.rawValue)")
        }
        switch comparison {
        case .equal: return order == .orderedSame
        case .notEqual: return order != .orderedSame
        case .less: return order == .orderedAscending
        case .lessOrEqual: return order != .orderedDescending
        case .greater: return order == .orderedDescending
        case .greaterOrEqual: return order != .orderedAscending
        default: throw .unsupportedWhere("\(comparison.rawValue) needs text on both sides")
        }
    }

    private static func compareText(_ lhs: String, _ comparison: ComparisonOperator, _ rhs: String) throws(CommandError) -> Bool {
        switch comparison {
        case .equal: lhs == rhs
        case .notEqual: lhs != rhs
        case .less: lhs < rhs
        case .lessOrEqual: lhs <= rhs
        case .greater: lhs > rhs
        case .greaterOrEqual: lhs >= rhs
        case .beginsWith: lhs.hasPrefix(rhs)
        case .endsWith: lhs.hasSuffix(rhs)
        case .contains: lhs.contains(rhs)
        case .like: like(Array(lhs), Array(rhs))
        case .matches, .in: throw .unsupportedWhere(comparison.rawValue)
        }
    }

    private static func normalized(_ text: String, _ options: ComparisonOptions) -> String {
        var folding: String.CompareOptions = []
        if options.contains(.caseInsensitive) { folding.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { folding.insert(.diacriticInsensitive) }
        return folding.isEmpty ? text : text.folding(options: folding, locale: nil)
    }

    /// `LIKE`: `*` matches any run of characters, `?` exactly one.
    private static func like(_ text: [Character], _ pattern: [Character]) -> Bool {
        guard let first = pattern.first else { return text.isEmpty }
        let rest = Array(pattern.dropFirst())
        switch first {
        case "*": return (0...text.count).contains { like(Array(text.dropFirst($0)), rest) }
        case "?": return !text.isEmpty && like(Array(text.dropFirst()), rest)
        default: return text.first == first && like(Array(text.dropFirst()), rest)
        }
    }

    private static func order(_ left: FormatValue, _ right: FormatValue) -> ComparisonResult? {
        func result<T: Comparable>(_ lhs: T, _ rhs: T) -> ComparisonResult {
            lhs < rhs ? .orderedAscending : (lhs > rhs ? .orderedDescending : .orderedSame)
        }
        switch (left, right) {
        case (.int(let lhs), .int(let rhs)): return result(lhs, rhs)
        case (.int(let lhs), .double(let rhs)): return result(Double(lhs), rhs)
        case (.double(let lhs), .int(let rhs)): return result(lhs, Double(rhs))
        case (.double(let lhs), .double(let rhs)): return result(lhs, rhs)
        case (.date(let lhs), .date(let rhs)): return result(lhs, rhs)
        case (.bool(let lhs), .bool(let rhs)): return result(lhs ? 1 : 0, rhs ? 1 : 0)
        case (.bool(let lhs), .int(let rhs)): return result(lhs ? 1 : 0, rhs)
        default: return nil
        }
    }
}
