import Foundation

/// Integer arithmetic whose operands are constants, folded with overflow checks: `Predicate.evaluate` would trap on
/// `Int.max + 1` (or a division by zero) while the translator folds constants, so such a node is folded only when
/// Swift computes it without trapping, and otherwise left to the store (which throws on overflow when it runs).
protocol CheckedFolding {
    /// The folded value; `nil` when an operand is not constant or the operation would trap.
    var checkedConstant: PredicateTranslator.Constant? { get }
}

extension CheckedFolding {
    /// The constant values of two operands, as `T`; `nil` unless both are constant.
    static func constants<T>(_ lhs: Any, _ rhs: Any, as: T.Type) -> (T, T)? {
        guard let left = PredicateTranslator.constantValue(of: lhs)?.value as? T,
            let right = PredicateTranslator.constantValue(of: rhs)?.value as? T
        else { return nil }
        return (left, right)
    }
}

extension PredicateExpressions.Arithmetic: CheckedFolding where LHS.Output: FixedWidthInteger {
    var checkedConstant: PredicateTranslator.Constant? {
        guard let (a, b) = Self.constants(lhs, rhs, as: LHS.Output.self) else { return nil }
        let (result, overflow) =
            switch op {
            case .add: a.addingReportingOverflow(b)
            case .subtract: a.subtractingReportingOverflow(b)
            case .multiply: a.multipliedReportingOverflow(by: b)
            }
        return overflow ? nil : PredicateTranslator.Constant(value: result)
    }
}

extension PredicateExpressions.IntDivision: CheckedFolding where LHS.Output: FixedWidthInteger {
    var checkedConstant: PredicateTranslator.Constant? {
        guard let (a, b) = Self.constants(lhs, rhs, as: LHS.Output.self) else { return nil }
        let (result, overflow) = a.dividedReportingOverflow(by: b)
        return overflow ? nil : PredicateTranslator.Constant(value: result)
    }
}

extension PredicateExpressions.IntRemainder: CheckedFolding where LHS.Output: FixedWidthInteger {
    var checkedConstant: PredicateTranslator.Constant? {
        guard let (a, b) = Self.constants(lhs, rhs, as: LHS.Output.self) else { return nil }
        let (result, overflow) = a.remainderReportingOverflow(dividingBy: b)
        return overflow ? nil : PredicateTranslator.Constant(value: result)
    }
}

extension PredicateExpressions.UnaryMinus: CheckedFolding where Wrapped.Output: FixedWidthInteger {
    var checkedConstant: PredicateTranslator.Constant? {
        guard let value = PredicateTranslator.constantValue(of: wrapped)?.value as? Wrapped.Output else { return nil }
        let (result, overflow) = Wrapped.Output.zero.subtractingReportingOverflow(value)
        return overflow ? nil : PredicateTranslator.Constant(value: result)
    }
}
