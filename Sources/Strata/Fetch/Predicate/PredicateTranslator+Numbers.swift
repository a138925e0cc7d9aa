import Foundation

extension PredicateTranslator {
    /// The range checked arithmetic on `type` must stay in: the type's range for integers, `nil` (unchecked)
    /// for floating point.
    ///
    /// - Throws: `StrataError.unsupportedPredicate` for other numbers (`Decimal`, or unsigned integers wider
    ///   than `Int64`, which are stored as text above `Int64.max`).
    func arithmeticBounds(for type: Any.Type, in expression: Any) throws -> ClosedRange<Int64>? {
        if type is any BinaryFloatingPoint.Type { return nil }
        guard let integer = type as? any FixedWidthInteger.Type else {
            throw unsupported(expression, "arithmetic on \(type) is not translated; use integers or floating point")
        }
        return try Self.bounds(of: integer, in: expression, translator: self)
    }

    private static func bounds<T: FixedWidthInteger>(
        of _: T.Type, in expression: Any, translator: PredicateTranslator
    ) throws -> ClosedRange<Int64> {
        guard let upper = Int64(exactly: T.max) else {
            throw translator.unsupported(
                expression, "arithmetic on \(T.self) is not translated; values above Int64.max are stored as text")
        }
        return Int64(T.min)...upper
    }
}
