import Foundation

/// How the evaluator compares two texts: SQLite's `BINARY`, the `STRATA_DECIMAL` collation of decimal
/// columns, or one of the `STRATA_*` string orderings used in `ORDER BY`.
package enum TextCollation: Equatable {
    case binary
    case decimal
    case ordering(StrataStringOrdering)

    /// The collation a sort key uses.
    init(_ collation: QueryOrdering.Collation) {
        switch collation {
        case .binary: self = .binary
        case .swift: self = .ordering(.swift)
        case .localizedStandard: self = .ordering(.localizedStandard)
        case .localized: self = .ordering(.localized)
        case .caseInsensitive: self = .ordering(.caseInsensitive)
        }
    }
}

extension QueryEvaluator {
    /// How two values order in SQLite: `NULL` first, then numbers (integers and reals by value), then text
    /// (by `collation`), then blobs (bytewise).
    package static func order(_ left: StoredValue, _ right: StoredValue, collation: TextCollation) -> ComparisonResult {
        switch (left, right) {
        case (.null, .null): return .orderedSame
        case (.null, _): return .orderedAscending
        case (_, .null): return .orderedDescending
        case (.integer(let a), .integer(let b)): return compareValues(a, b)
        case (.integer(let a), .real(let b)): return compareValues(Double(a), b)
        case (.real(let a), .integer(let b)): return compareValues(a, Double(b))
        case (.real(let a), .real(let b)): return compareValues(a, b)
        case (.integer, _), (.real, _): return .orderedAscending
        case (_, .integer), (_, .real): return .orderedDescending
        case (.text(let a), .text(let b)): return compareText(a, b, collation: collation)
        case (.text, .blob): return .orderedAscending
        case (.blob, .text): return .orderedDescending
        case (.blob(let a), .blob(let b)): return compareBytes(a, b)
        }
    }

    /// Whether `left` sorts before `right` under store orderings, as `ORDER BY` would put them.
    ///
    /// - Throws: as ``isSatisfied(_:)``, for a sort key that can't be evaluated.
    package static func precedes(
        _ left: QueryEvaluator, _ right: QueryEvaluator, orderings: [QueryOrdering]
    ) throws -> Bool {
        for ordering in orderings {
            let leftValue = try left.evaluate(ordering.expression)
            let rightValue = try right.evaluate(ordering.expression)
            var collation = TextCollation(ordering.collation)
            // Only text has a collation: a declared one is looked up for two texts alone.
            if collation == .binary, case .text = leftValue, case .text = rightValue,
                let declared = left.declaredCollation(of: ordering.expression)
            {
                collation = declared
            }
            let order = Self.order(leftValue, rightValue, collation: collation)
            if order == .orderedSame { continue }
            return (order == .orderedAscending) == ordering.ascending
        }
        return false
    }

    /// The collation a column declares: decimal columns order by value (`STRATA_DECIMAL`).
    func declaredCollation(of expression: QueryExpression) -> TextCollation? {
        if case .collated(let operand, _) = expression { return declaredCollation(of: operand) }
        guard case .column(let name) = expression else { return nil }
        if let columns { return columns.column(named: name)?.isDecimal == true ? .decimal : nil }
        guard let property = entity.property(named: name),
            case .attribute(.decimal) = property.kind
        else { return nil }
        return .decimal
    }

    /// The collation a comparison of `left` with `right` uses, by SQLite's rule: an explicit `COLLATE` on the
    /// left, then on the right, then the left column's declared one, then the right's, else `BINARY`.
    func collation(comparing left: QueryExpression, with right: QueryExpression) -> TextCollation {
        Self.explicitCollation(of: left) ?? Self.explicitCollation(of: right)
            ?? declaredCollation(of: left) ?? declaredCollation(of: right) ?? .binary
    }

    private static func explicitCollation(of expression: QueryExpression) -> TextCollation? {
        guard case .collated(_, let collation) = expression else { return nil }
        return TextCollation(collation)
    }

    private static func compareText(_ left: String, _ right: String, collation: TextCollation) -> ComparisonResult {
        switch collation {
        case .binary: compareBytes(Array(left.utf8), Array(right.utf8))
        case .decimal: StrataText.compareDecimalText(left, right)
        case .ordering(let ordering): StrataText.compare(left, right, ordering: ordering)
        }
    }

    private static func compareBytes(_ left: [UInt8], _ right: [UInt8]) -> ComparisonResult {
        for (a, b) in zip(left, right) where a != b {
            return a < b ? .orderedAscending : .orderedDescending
        }
        return compareValues(left.count, right.count)
    }

    private static func compareValues<T: Comparable>(_ left: T, _ right: T) -> ComparisonResult {
        left < right ? .orderedAscending : (left == right ? .orderedSame : .orderedDescending)
    }
}
