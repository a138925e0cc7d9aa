import Foundation

extension QueryEvaluator {
    /// SQLite arithmetic: `NULL` in, `NULL` out; integers stay integers (an overflowing result becomes a
    /// real, integer division truncates); division or remainder by zero is `NULL`. With `bounds` (checked
    /// arithmetic) a result outside them fails, as the store's `strata_int_*` functions do.
    ///
    /// - Throws: `StrataError.storeFailure` when checked arithmetic overflows.
    func arithmetic(
        _ op: QueryExpression.ArithmeticOperator, _ left: StoredValue, _ right: StoredValue, bounds: ClosedRange<Int64>?
    ) throws -> StoredValue {
        guard let a = SQLiteValueConversion.number(left), let b = SQLiteValueConversion.number(right) else {
            return .null
        }
        if let bounds {
            let x = SQLiteValueConversion.integer(left), y = SQLiteValueConversion.integer(right)
            guard let result = Self.integerResult(op, x, y) else {
                if (op == .divide || op == .remainder) && y == 0 { return .null }
                throw overflow(op, x, y)
            }
            guard bounds.contains(result) else { throw overflow(op, x, y) }
            return .integer(result)
        }
        switch (a, b) {
        case (.integer(let x), .integer(let y)):
            if (op == .divide || op == .remainder) && y == 0 { return .null }
            if let result = Self.integerResult(op, x, y) { return .integer(result) }
            return Self.realResult(op, Double(x), Double(y))
        default:
            return Self.realResult(op, a.real ?? 0, b.real ?? 0)
        }
    }

    /// The integer result, `nil` on overflow or division by zero.
    private static func integerResult(_ op: QueryExpression.ArithmeticOperator, _ x: Int64, _ y: Int64) -> Int64? {
        let (result, overflow): (Int64, Bool)
        switch op {
        case .add: (result, overflow) = x.addingReportingOverflow(y)
        case .subtract: (result, overflow) = x.subtractingReportingOverflow(y)
        case .multiply: (result, overflow) = x.multipliedReportingOverflow(by: y)
        case .divide:
            guard y != 0 else { return nil }
            (result, overflow) = x.dividedReportingOverflow(by: y)
        case .remainder:
            guard y != 0 else { return nil }
            (result, overflow) = x.remainderReportingOverflow(dividingBy: y)
        }
        return overflow ? nil : result
    }

    private static func realResult(_ op: QueryExpression.ArithmeticOperator, _ x: Double, _ y: Double) -> StoredValue {
        switch op {
        case .add: return .real(x + y)
        case .subtract: return .real(x - y)
        case .multiply: return .real(x * y)
        case .divide: return y == 0 ? .null : .real(x / y)
        case .remainder:
            // SQLite takes the remainder of the integer parts, as a real.
            let (xi, yi) = (SQLiteValueConversion.integer(.real(x)), SQLiteValueConversion.integer(.real(y)))
            guard yi != 0, let result = integerResult(.remainder, xi, yi) else { return .null }
            return .real(Double(result))
        }
    }

    private func overflow(_ op: QueryExpression.ArithmeticOperator, _ x: Int64, _ y: Int64) -> StrataError {
        .storeFailure(operation: "evaluate a predicate", reason: "\(x) \(op.rawValue) \(y) overflows")
    }
}
