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
        // type system can't see. Like every conformance here it is added only when Swift asks for it, so a class that
        // states it itself (in its own clause or an extension) gets no redundant second one.
        // The others are written `nonisolated` unless the class names its global actor (`@MainActor @Model`): in a
        // module built with `-default-isolation MainActor` a conformance declared in an extension is otherwise
        // inferred to be main-actor isolated, so the model's `PersistentModel`, `Observable`, `Equatable` and
        // `Hashable` conformances couldn't be used from a model actor, as SwiftData's are. An app's own
        // `extension Item: Comparable` then builds on the nonisolated `Equatable` instead of implying an isolated one.
        let protocols = protocols.map { $0.as(MemberTypeSyntax.self)?.name.text ?? $0.trimmedDescription }
        let isolation = hasGlobalActor(model) ? "" : "nonisolated "
        let qualified = [
            "PersistentModel": "\(isolation)Strata.PersistentModel",
            "Observable": "\(isolation)Observation.Observable",
            "Sendable": "@unchecked Swift.Sendable",
            "Equatable": "\(isolation)Swift.Equatable",
            "Hashable": "\(isolation)Swift.Hashable",
        ]
        return protocols.compactMap { simpleName in
            qualified[simpleName].flatMap { ExtensionDeclSyntax.conformance(of: type, to: $0) }
        }
    }

    /// Whether the class is marked with a global actor (`@MainActor`, or a custom one, named `…Actor` by convention).
    static func hasGlobalActor(_ model: ClassDeclSyntax) -> Bool {
        model.attributes.contains { element in
            guard case .attribute(let attribute) = element else { return false }
            return attribute.simpleName.hasSuffix("Actor") && attribute.arguments == nil
        }
    }
}
