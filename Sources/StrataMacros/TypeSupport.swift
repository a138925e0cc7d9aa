import SwiftSyntax

/// Decides, from syntax alone, whether a property's declared type can be persisted.
///
/// The check is deliberately shallow: names it can't judge (a user's enum, a Codable struct, a
/// `@Model` class) are accepted and left to the type checker and the runtime. Only shapes that can
/// never be stored are rejected: function types, tuples, `Any`/`AnyObject`, existentials and
/// opaque types, metatypes and protocol compositions. An implicitly unwrapped `T!` is stored as `T?`.
enum TypeSupport {
    /// The list of supported types, quoted in diagnostics.
    static let supportedSummary =
        "Bool, integers, Double, Float, Decimal, String, Date, Data, UUID, URL, "
        + "raw-value enums, Codable types, arrays and dictionaries of Codable values, "
        + "@Model classes, and Optionals of these"

    /// The first part of `type` that can't be persisted, or `nil` when the type looks storable.
    static func unsupportedPart(of type: TypeSyntax) -> TypeSyntax? {
        if let optional = type.as(OptionalTypeSyntax.self) {
            return unsupportedPart(of: optional.wrappedType)
        }
        // `T!` is an Optional that reads as `T`: stored as `T?`.
        if let unwrapped = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
            return unsupportedPart(of: unwrapped.wrappedType)
        }
        if let array = type.as(ArrayTypeSyntax.self) {
            return unsupportedPart(of: array.element)
        }
        if let dictionary = type.as(DictionaryTypeSyntax.self) {
            return unsupportedPart(of: dictionary.key) ?? unsupportedPart(of: dictionary.value)
        }
        if let attributed = type.as(AttributedTypeSyntax.self) {
            return unsupportedPart(of: attributed.baseType)
        }
        if let tuple = type.as(TupleTypeSyntax.self) {
            // `(Int)` is just a parenthesized `Int`.
            if tuple.elements.count == 1, let only = tuple.elements.first, only.firstName == nil {
                return unsupportedPart(of: only.type)
            }
            return type
        }
        if let identifier = type.as(IdentifierTypeSyntax.self) {
            if ["Any", "AnyObject"].contains(identifier.name.text) {
                return type
            }
            return unsupportedArgument(in: identifier.genericArgumentClause)
        }
        if let member = type.as(MemberTypeSyntax.self) {
            return unsupportedArgument(in: member.genericArgumentClause)
        }
        let neverStorable: [SyntaxKind] = [
            .functionType, .someOrAnyType, .metatypeType, .compositionType,
            .packExpansionType, .packElementType,
        ]
        return neverStorable.contains(type.kind) ? type : nil
    }

    private static func unsupportedArgument(in clause: GenericArgumentClauseSyntax?) -> TypeSyntax? {
        for argument in clause?.arguments ?? [] {
            if case .type(let argumentType) = argument.argument,
                let unsupported = unsupportedPart(of: argumentType)
            {
                return unsupported
            }
        }
        return nil
    }
}
