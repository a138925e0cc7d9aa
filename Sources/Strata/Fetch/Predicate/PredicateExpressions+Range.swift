import Foundation

// A range whose ends read the input (`($0.low...10).contains(5)`) can be empty in SQL, where Swift traps on
// `low > 10`: such a row simply doesn't match.
extension PredicateExpressions.RangeExpressionContains: QueryTranslatable {
    /// `(low...high).contains($0.n)` → `BETWEEN`; `(low..<high).contains($0.n)` → `>= low AND < high`.
    package func translate(with translator: PredicateTranslator) throws -> TranslatedOperand {
        let bounds: RangeBounds
        if let node = range as? any RangeBoundsExpression {
            bounds = RangeBounds(
                lower: try translator.operand(node.lowerExpression),
                upper: try translator.operand(node.upperExpression), isClosed: node.isClosed)
        } else if case .constant(let value) = try translator.operand(range),
            let constant = value as? any RangeBoundsValue
        {
            bounds = RangeBounds(
                lower: .constant(constant.lowerValue), upper: .constant(constant.upperValue),
                isClosed: constant.isClosed)
        } else {
            throw translator.unsupported(
                self, "only ranges written a...b or a..<b, or known before the fetch, are translated")
        }
        let item = try translator.operand(element)
        let subject = PredicateTranslator.comparedLikeSwift(
            try translator.value(item, like: nil, in: self), producedBy: element)
        let lower = try translator.value(bounds.lower, like: item, in: self)
        let upper = try translator.value(bounds.upper, like: item, in: self)
        if bounds.isClosed {
            return .query(.between(subject, lower: lower, upper: upper))
        }
        return .query(.and([.compare(subject, .greaterOrEqual, lower), .compare(subject, .less, upper)]))
    }
}

/// The two ends of a range, translated.
private struct RangeBounds {
    let lower: TranslatedOperand
    let upper: TranslatedOperand
    let isClosed: Bool
}

/// A range node (`a...b`, `a..<b`) whose ends may read the input.
private protocol RangeBoundsExpression {
    var lowerExpression: Any { get }
    var upperExpression: Any { get }
    var isClosed: Bool { get }
}

extension PredicateExpressions.ClosedRange: RangeBoundsExpression {
    var lowerExpression: Any { lower }
    var upperExpression: Any { upper }
    var isClosed: Bool { true }
}

extension PredicateExpressions.Range: RangeBoundsExpression {
    var lowerExpression: Any { lower }
    var upperExpression: Any { upper }
    var isClosed: Bool { false }
}

/// A range value captured by the predicate.
private protocol RangeBoundsValue {
    var lowerValue: Any { get }
    var upperValue: Any { get }
    var isClosed: Bool { get }
}

extension ClosedRange: RangeBoundsValue {
    fileprivate var lowerValue: Any { lowerBound }
    fileprivate var upperValue: Any { upperBound }
    fileprivate var isClosed: Bool { true }
}

extension Range: RangeBoundsValue {
    fileprivate var lowerValue: Any { lowerBound }
    fileprivate var upperValue: Any { upperBound }
    fileprivate var isClosed: Bool { false }
}
