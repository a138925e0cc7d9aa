import Foundation

#if !canImport(Darwin)
extension PredicateExpressions {
    /// A Foundation `Expression` held as a value in a predicate, so that `build_evaluate` can apply it.
    ///
    /// Apple's `#Predicate` writes `expression.evaluate($0)` as
    /// `PredicateExpressions.build_evaluate(PredicateExpressions.build_Arg(expression), $0)`. On Linux Foundation's
    /// `Expression` isn't `Codable`, so its `Value` isn't a `StandardPredicateExpression` and such a predicate
    /// doesn't compile; with this node it does, and Strata runs it in the store.
    public struct ExpressionValue<each Input, Output>: StandardPredicateExpression {
        /// The expression.
        public let expression: Expression<repeat each Input, Output>

        /// Holds `expression`.
        public init(_ expression: Expression<repeat each Input, Output>) {
            self.expression = expression
        }

        /// The expression itself: it reads nothing from the predicate's input.
        public func evaluate(_ bindings: PredicateBindings) throws -> Expression<repeat each Input, Output> {
            expression
        }

        /// Refuses: Foundation on Linux can't encode an `Expression`.
        /// - Throws: `EncodingError.invalidValue`, always.
        public func encode(to encoder: any Encoder) throws {
            throw EncodingError.invalidValue(
                self,
                EncodingError.Context(
                    codingPath: encoder.codingPath, debugDescription: "Foundation on Linux can't encode an Expression"))
        }

        /// Refuses: Foundation on Linux can't decode an `Expression`.
        /// - Throws: `DecodingError.dataCorrupted`, always.
        public init(from decoder: any Decoder) throws {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath, debugDescription: "Foundation on Linux can't decode an Expression"))
        }
    }

    /// `expression` as a predicate's argument, as Apple's `#Predicate` passes one to `build_evaluate`.
    ///
    /// Disfavored: `#Predicate` wraps every captured value in `build_Arg`, and without it each of those calls in a
    /// long predicate (nested `if`s over optional chains) gave the type checker one more overload to try, past its
    /// time limit. It is chosen only where Foundation's own overloads don't apply: an `Expression` argument.
    @_disfavoredOverload
    public static func build_Arg<each Input, Output>(
        _ expression: Expression<repeat each Input, Output>
    ) -> ExpressionValue<repeat each Input, Output> {
        ExpressionValue(expression)
    }
}
#endif
