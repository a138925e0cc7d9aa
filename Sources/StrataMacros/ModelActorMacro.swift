import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@ModelActor`: gives an actor its own `ModelContext`, run on the actor's serial executor.
struct ModelActorMacro {}

extension ModelActorMacro: MemberMacro {
    static func expansion(
        of node: AttributeSyntax,
        providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard declaration.is(ActorDeclSyntax.self) else {
            let keyword = declaration.introducer
            context.diagnose(
                StrataDiagnostic(
                    "modelActorNotActor",
                    "@ModelActor can only be applied to an actor; change '\(keyword.text)' to 'actor'"
                ).at(
                    keyword,
                    fixIt: .replace(
                        message: StrataFixIt("Change '\(keyword.text)' to 'actor'"),
                        oldNode: keyword,
                        newNode: keyword.with(\.tokenKind, .keyword(.actor)))))
            return []
        }
        // The members take the actor's access level (`public`, `package`), so a public actor conforms to the public
        // `ModelActor` protocol and can be made from other modules; `private` and `fileprivate` actors' members
        // default to the actor's own access.
        let access =
            declaration.modifiers.first { modifier in
                [.public, .package].contains { modifier.name.tokenKind == .keyword($0) }
            }.map { "\($0.name.text) " } ?? ""
        return [
            "\(raw: access)nonisolated let modelExecutor: any Strata.ModelExecutor",
            "\(raw: access)nonisolated let modelContainer: Strata.ModelContainer",
            """
            \(raw: access)init(modelContainer: Strata.ModelContainer) {
            let modelContext = Strata.ModelContext(modelContainer)
            self.modelExecutor = Strata.DefaultSerialModelExecutor(modelContext: modelContext)
            self.modelContainer = modelContainer
            }
            """,
        ]
    }
}

extension ModelActorMacro: ExtensionMacro {
    static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard declaration.is(ActorDeclSyntax.self), !protocols.isEmpty else { return [] }
        return ExtensionDeclSyntax.conformance(of: type, to: "Strata.ModelActor").map { [$0] } ?? []
    }
}
