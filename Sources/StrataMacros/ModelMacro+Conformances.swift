import SwiftSyntax
import SwiftSyntaxMacros

extension ModelMacro: ExtensionMacro {
    static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard let model = modelClass(of: declaration) else { return [] }
        // A subclass of a model inherits every conformance; Swift asks a subclass to restate an unchecked
        // `Sendable` it inherits.
        guard ModelHierarchy(model, conformingTo: protocols).superclass == nil else {
            return [ExtensionDeclSyntax.conformance(of: type, to: "@unchecked Swift.Sendable")].compactMap { $0 }
        }
        // `Sendable` is `@unchecked`, as SwiftData's is: a model's state is guarded by its context's actor, which the
        // type system can't see. Conforming to it also keeps the class `nonisolated` in a module built with
        // `-default-isolation MainActor` (a type conforming to `Sendable` is not inferred to the main actor), so its
        // properties, key paths and `PersistentModel` conformance work from any actor, as SwiftData's do. There the
        // compiler doesn't ask for it, since it takes the class to be main-actor isolated and so already `Sendable`;
        // it is added unless the class names its global actor itself (`@MainActor @Model`).
        // The other two conformances are written `nonisolated`: in such a module a conformance declared in an
        // extension is otherwise inferred to be main-actor isolated, even for a nonisolated class.
        var protocols = protocols.map { $0.as(MemberTypeSyntax.self)?.name.text ?? $0.trimmedDescription }
        let isolation = hasGlobalActor(model) ? "" : "nonisolated "
        if !protocols.contains("Sendable"), isolation == "nonisolated " {
            protocols.append("Sendable")
        }
        let qualified = [
            "PersistentModel": "\(isolation)Strata.PersistentModel",
            "Observable": "\(isolation)Observation.Observable",
            "Sendable": "@unchecked Swift.Sendable",
        ]
        return protocols.compactMap { simpleName in
            qualified[simpleName].flatMap { ExtensionDeclSyntax.conformance(of: type, to: $0) }
        }
    }

    /// Whether the class is marked with a global actor (`@MainActor`, or a custom one, named `…Actor` by convention).
    private static func hasGlobalActor(_ model: ClassDeclSyntax) -> Bool {
        model.attributes.contains { element in
            guard case .attribute(let attribute) = element else { return false }
            return attribute.simpleName.hasSuffix("Actor") && attribute.arguments == nil
        }
    }
}
