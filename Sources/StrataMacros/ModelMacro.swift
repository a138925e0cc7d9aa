import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@Model`: turns a class into a persistent model.
///
/// It runs in three roles. The member role adds the backing data, one `PersistentProperty` per
/// persisted property, the schema metadata, `init(backingData:)` and the observation plumbing,
/// and is the only role that reports problems (the compiler runs each role separately, so
/// reporting from more than one would repeat every message). The member-attribute role marks
/// persisted properties with `@_PersistedProperty`; the extension role adds the conformances.
struct ModelMacro {
    /// The class `@Model` is attached to, or `nil` if it isn't attached to a non-generic class.
    static func modelClass(of declaration: some DeclGroupSyntax) -> ClassDeclSyntax? {
        guard let model = declaration.as(ClassDeclSyntax.self), model.genericParameterClause == nil else {
            return nil
        }
        return model
    }

    /// The error for `@Model` on a struct, enum, actor, protocol or extension.
    static func notAClass(_ declaration: some DeclGroupSyntax) -> Diagnostic {
        let keyword = declaration.introducer
        let name = declaration.asProtocol(NamedDeclSyntax.self)?.name.trimmedDescription
            ?? declaration.as(ExtensionDeclSyntax.self)?.extendedType.trimmedDescription
            ?? ""
        let replacement = FixIt(
            message: StrataFixIt("Change '\(keyword.text)' to 'final class'"),
            changes: [.replaceText(range: keyword.trimmedRange, with: "final class", in: Syntax(keyword))])
        return StrataDiagnostic(
            "notAClass",
            "@Model can only be applied to a class; change '\(keyword.text) \(name)' to 'final class \(name)'"
        ).at(keyword, fixIt: replacement)
    }
}

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
            guard let conformance = qualified[simpleName] else { return nil }
            let decl: DeclSyntax = "extension \(type.trimmed): \(raw: conformance) {}"
            return decl.as(ExtensionDeclSyntax.self)
        }
    }
}

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
              ModelProperty(variable)?.persisted != nil,
              !isInsideConditionalBlock(variable, of: model) else {
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
