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
        guard modelClass(of: declaration) != nil else { return [] }
        let qualified = ["PersistentModel": "Strata.PersistentModel", "Observable": "Observation.Observable"]
        return protocols.compactMap { requested in
            let simpleName = requested.as(MemberTypeSyntax.self)?.name.text ?? requested.trimmedDescription
            return qualified[simpleName].flatMap { ExtensionDeclSyntax.conformance(of: type, to: $0) }
        }
    }
}
