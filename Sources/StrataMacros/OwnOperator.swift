import SwiftSyntax

/// A binary operator a `@Model` class declares in its body (`static func < (lhs: Item, rhs: Item) -> Bool`),
/// other than `==`, which has a witness of its own.
struct OwnOperator {
    /// The operator (`<`, `+=`).
    let name: String
    /// The access modifier a witness calling it gets (`"public "`, or `""`).
    let access: String
    /// The two parameters' types as written (`Item`, `inout Item`).
    let parameterTypes: (String, String)
    /// The return clause as written after a space (` -> Bool`), empty for none.
    let returnClause: String

    /// The operator `function` declares, when it is a static binary operator other than `==`.
    init?(_ function: FunctionDeclSyntax) {
        guard case .binaryOperator(let name) = function.name.tokenKind, name != "==",
            function.modifiers.contains(.static, .class)
        else { return nil }
        let parameters = Array(function.signature.parameterClause.parameters)
        guard parameters.count == 2 else { return nil }
        self.name = name
        access = Self.witnessAccess(function.modifiers)
        parameterTypes = (parameters[0].type.trimmedDescription, parameters[1].type.trimmedDescription)
        returnClause = function.signature.returnClause.map { " \($0.trimmedDescription)" } ?? ""
    }

    /// The access a generated witness of an operator with `modifiers` gets: the operator's own (`open` read as
    /// `public`, which a static member can't exceed), or none.
    static func witnessAccess(_ modifiers: DeclModifierListSyntax) -> String {
        let access = modifiers.first { modifier in
            [.public, .package, .open].contains { modifier.name.tokenKind == .keyword($0) }
        }
        return access.map { $0.name.tokenKind == .keyword(.open) ? "public " : "\($0.name.text) " } ?? ""
    }
}
