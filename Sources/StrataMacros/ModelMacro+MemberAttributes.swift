import SwiftSyntax
import SwiftSyntaxMacros

extension ModelMacro: MemberAttributeMacro {
    static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingAttributesFor member: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AttributeSyntax] {
        guard let model = modelClass(of: declaration),
            let variable = member.as(VariableDeclSyntax.self),
            variable.attributes.attribute(named: "_PersistedProperty") == nil,
            let property = ModelProperty(variable),
            property.isEphemeral || property.persisted.map({ !$0.isConstant }) == true,
            !isInsideConditionalBlock(variable, of: model)
        else {
            return []
        }
        return [AttributeSyntax(attributeName: IdentifierTypeSyntax(name: .identifier("_PersistedProperty")))]
    }

    /// Whether `variable` sits inside an `#if` block of `model` rather than directly in its body.
    /// Such members are reported by the member role and get no accessors, because the member role
    /// doesn't declare their descriptors either.
    private static func isInsideConditionalBlock(_ variable: VariableDeclSyntax, of model: ClassDeclSyntax) -> Bool {
        let members = model.memberBlock.members
        guard members.contains(where: { $0.decl.is(IfConfigDeclSyntax.self) }) else { return false }
        let text = variable.trimmedDescription
        return !members.contains { $0.decl.trimmedDescription == text }
    }
}
