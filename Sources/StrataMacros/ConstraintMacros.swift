import SwiftSyntax
import SwiftSyntaxMacros

/// Shared expansion of `#Index` and `#Unique`: a static property returning the key-path lists.
///
/// The literal is first typed as `[[PartialKeyPath<Model>]]` so that `\.title` resolves against
/// the model, then returned as `[[AnyKeyPath]]`, which the runtime reads without knowing the type.
enum KeyPathListMacro {
    static func expansion(
        of node: some FreestandingMacroExpansionSyntax,
        property: String,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        let macro = node.macroName.text
        guard
            let model = node.genericArgumentClause?.arguments.first?.argument.trimmedDescription
                ?? enclosingClassName(in: context)
        else {
            throw StrataDiagnostic(
                "constraintWithoutType", "write the model type explicitly, as in #\(macro)<Book>([\\.title])"
            )
        }
        let lists = node.arguments.map { $0.expression.trimmedDescription }.joined(separator: ", ")
        if macro == "Index", node.arguments.contains(where: { !$0.expression.is(ArrayExprSyntax.self) }) {
            // Index kinds (`.binary([\.a])`, `.rtree([\.b, \.c])`): each records its key paths.
            return [
                """
                public static var \(raw: property): [[AnyKeyPath]] {
                let indices: [Strata.Schema.Index<\(raw: model)>.Types<\(raw: model)>] = [\(raw: lists)]
                return indices.map { $0._$strataKeyPaths }
                }
                """
            ]
        }
        return [
            """
            public static var \(raw: property): [[AnyKeyPath]] {
            let keyPaths: [[PartialKeyPath<\(raw: model)>]] = [\(raw: lists)]
            return keyPaths
            }
            """
        ]
    }

    private static func enclosingClassName(in context: some MacroExpansionContext) -> String? {
        context.lexicalContext.lazy.compactMap { $0.as(ClassDeclSyntax.self)?.name.trimmed.text }.first
    }
}

/// `#Index<Model>([\.a], [\.b, \.c])` or `#Index<Model>(.binary([\.a]), .rtree([\.b, \.c]))`: declares the
/// model's database indices.
struct IndexMacro: DeclarationMacro {
    static func expansion(
        of node: some FreestandingMacroExpansionSyntax, in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        try KeyPathListMacro.expansion(of: node, property: "_$strataIndices", in: context)
    }
}

/// `#Unique<Model>([\.a], [\.b, \.c])`: declares the model's uniqueness constraints.
struct UniqueMacro: DeclarationMacro {
    static func expansion(
        of node: some FreestandingMacroExpansionSyntax, in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        try KeyPathListMacro.expansion(of: node, property: "_$strataUniqueConstraints", in: context)
    }
}
