import Foundation

#if !canImport(Darwin)
// swift-format-ignore: AvoidRetroactiveConformances
/// `Expression` is `Codable` in Apple's Foundation; on Linux it isn't, so a captured `Expression` held in a predicate
/// (`PredicateExpressions.Value`, what `build_Arg` makes of any captured value) wasn't a `StandardPredicateExpression`
/// and `build_evaluate(build_Arg(expression), $0)` didn't compile. With this conformance it does, through Foundation's
/// own `build_Arg`: nothing is added to the overloads every `#Predicate` is type-checked against.
///
/// Foundation on Linux has no archiving for predicates or expressions, so encoding and decoding throw.
extension Expression: @retroactive Codable {
    /// Refuses: Foundation on Linux can't encode an `Expression`.
    /// - Throws: `EncodingError.invalidValue`, always.
    public func encode(to encoder: any Encoder) throws {
        throw EncodingError.invalidValue(
            self,
            EncodingError.Context(
                codingPath: encoder.codingPath,
                debugDescription:
                    "Foundation on Linux can't encode an Expression (only Apple's Foundation archives one)"))
    }

    /// Refuses: Foundation on Linux can't decode an `Expression`.
    /// - Throws: `DecodingError.dataCorrupted`, always.
    public init(from decoder: any Decoder) throws {
        throw DecodingError.dataCorrupted(
            DecodingError.Context(
                codingPath: decoder.codingPath,
                debugDescription:
                    "Foundation on Linux can't decode an Expression (only Apple's Foundation archives one)"))
    }
}
#endif
