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
        let name =
            declaration.asProtocol(NamedDeclSyntax.self)?.name.trimmedDescription
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
