import SwiftSyntax
import SwiftSyntaxMacros

public struct ModelMacro: MemberMacro {
    public static func expansion(of node: AttributeSyntax, providingMembersOf declaration: some DeclGroupSyntax, conformingTo protocols: [TypeSyntax], in context: some MacroExpansionContext) throws -> [DeclSyntax] {
        ["static let strataHello = 42"]
    }
}
