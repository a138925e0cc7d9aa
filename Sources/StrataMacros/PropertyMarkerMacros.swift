import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// Checks shared by `@Attribute`, `@Relationship` and `@Transient`, which expand to nothing:
/// `@Model` reads them. Each reports misuse of itself, so a message appears once.
enum PropertyMarker {
    /// Reports `@<macro>` on anything but a stored property; returns the property when it is one.
    /// With `allowsComputed`, a computed property is accepted silently (and `nil` returned): there is nothing to mark.
    static func storedProperty(
        _ declaration: some DeclSyntaxProtocol, macro: AttributeSyntax, allowsComputed: Bool = false,
        in context: some MacroExpansionContext
    ) -> VariableDeclSyntax? {
        let name = macro.simpleName
        guard let variable = declaration.as(VariableDeclSyntax.self) else {
            context.diagnose(
                StrataDiagnostic(
                    "markerPlacement", "@\(name) can only be applied to a stored property of a @Model class"
                ).at(macro))
            return nil
        }
        if variable.bindings.contains(where: \.isComputed) {
            if allowsComputed {
                return nil
            }
            let property = variable.bindings.first?.pattern.trimmedDescription ?? ""
            context.diagnose(
                StrataDiagnostic(
                    "markerOnComputed",
                    "@\(name) can't be applied to computed property '\(property)'; only stored properties are "
                        + "persisted, so remove @\(name)"
                ).at(macro))
            return nil
        }
        return variable
    }
}

/// `@Attribute(…)`: customizes how a property is stored (see `Schema.Attribute.Option`).
struct AttributeMacro: PeerMacro {
    static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        if let variable = PropertyMarker.storedProperty(declaration, macro: node, in: context),
            variable.attributes.attribute(named: "Relationship") != nil
        {
            let property = variable.bindings.first?.pattern.trimmedDescription ?? ""
            context.diagnose(
                StrataDiagnostic(
                    "attributeAndRelationship",
                    "property '\(property)' can't have both @Attribute and @Relationship; use @Relationship for "
                        + "references to @Model classes and @Attribute for everything else"
                ).at(node))
        }
        return []
    }
}

/// `@Relationship(…)`: describes a reference to other models (delete rule, inverse, counts).
struct RelationshipMacro: PeerMacro {
    static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        _ = PropertyMarker.storedProperty(declaration, macro: node, in: context)
        return []
    }
}

/// `@Transient`: keeps a stored property out of the store. It must have a default value, because
/// models fetched from the store are created without calling the user's initializer. On a computed
/// property, which is never stored, it changes nothing (SwiftData accepts it there too).
struct TransientMacro: PeerMacro {
    static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard
            let variable = PropertyMarker.storedProperty(
                declaration, macro: node, allowsComputed: true, in: context)
        else {
            return []
        }
        // `@Model`'s `init(backingData:)` gives loaded models an empty value of a type Strata knows one of.
        let isVar = variable.bindingSpecifier.tokenKind == .keyword(.var)
        for binding in variable.bindings
        where binding.givesNoValue(isVar: isVar) && binding.emptyValueExpression == nil {
            context.diagnose(
                StrataDiagnostic(
                    "transientWithoutDefault",
                    "@Transient property '\(binding.pattern.trimmedDescription)' needs a default value, because "
                        + "models loaded from the store don't run your initializer and "
                        + "'\(binding.typeAnnotation?.type.trimmedDescription ?? "its type")' has no empty value Strata "
                        + "knows; add '= <value>'"
                ).at(binding))
        }
        return []
    }
}
