import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `#Predicate<Input> { … }` for code that imports the `SwiftData` module: the expression tree Foundation's macro
/// writes, built from the same `PredicateExpressions.build_…` calls, with the functions Foundation's macro accepts on
/// Apple's platforms (`evaluate(_:)` of an `Expression` among them) accepted here too.
struct PredicateMacro: PredicateTreeMacro {
    static let kind = PredicateMacroKind.predicate
}

/// `#Expression<Input, Output> { … }` for code that imports the `SwiftData` module: `#Predicate`'s grammar for a
/// value of any type.
struct ExpressionClosureMacro: PredicateTreeMacro {
    static let kind = PredicateMacroKind.expression
}

/// A macro expanding its trailing closure into a tree of `PredicateExpressions` builder calls.
protocol PredicateTreeMacro: ExpressionMacro {
    /// Whether the tree makes a `Predicate` or an `Expression`.
    static var kind: PredicateMacroKind { get }
}

extension PredicateTreeMacro {
    static var formatMode: FormatMode { .disabled }

    static func expansion(
        of node: some FreestandingMacroExpansionSyntax, in context: some MacroExpansionContext
    ) throws -> ExprSyntax {
        try kind.expansion(of: node)
    }
}

/// What a predicate macro makes: a `Predicate` or an `Expression`. Both take the same closure grammar.
enum PredicateMacroKind {
    case predicate
    case expression

    /// The word messages use: "in this predicate".
    var noun: String {
        switch self {
        case .predicate: "predicate"
        case .expression: "expression"
        }
    }

    /// The Foundation type the expansion makes.
    var typeName: String {
        switch self {
        case .predicate: "Predicate"
        case .expression: "Expression"
        }
    }

    /// `Foundation.Predicate<Input>({ … })` built from the macro's trailing closure.
    func expansion(of node: some FreestandingMacroExpansionSyntax) throws -> ExprSyntax {
        guard let closure = node.trailingClosure else {
            throw DiagnosticsError(diagnostics: [missingTrailingClosure(node)])
        }
        var writer = PredicateBodyWriter(kind: self)
        let lifted = OptionalChainLifter.lifting(ExprSyntax(closure)).as(ClosureExprSyntax.self) ?? closure
        let body = writer.closure(lifted, depth: 0)
        guard writer.diagnostics.isEmpty else {
            throw DiagnosticsError(diagnostics: writer.diagnostics)
        }
        let generics = node.genericArgumentClause?.trimmedDescription ?? ""
        return "Foundation.\(raw: typeName)\(raw: generics)(\(raw: body))"
    }

    /// The error for `#Predicate<T>({ … })`, with a fix-it making the closure a trailing one.
    private func missingTrailingClosure(_ node: some FreestandingMacroExpansionSyntax) -> Diagnostic {
        let name = "#\(typeName)"
        let message = StrataDiagnostic(
            "predicateWithoutTrailingClosure", "\(name) macro expansion requires a trailing closure")
        guard let closure = node.arguments.first?.expression.as(ClosureExprSyntax.self) else {
            return message.at(node)
        }
        var rewritten = node
        rewritten.leftParen = nil
        rewritten.rightParen = nil
        rewritten.arguments = []
        rewritten.trailingClosure = closure.with(\.leadingTrivia, .space).with(\.trailingTrivia, [])
        return message.at(
            node,
            fixIt: FixIt(
                message: StrataFixIt("Use a trailing closure instead of a function parameter"),
                changes: [.replace(oldNode: Syntax(node), newNode: Syntax(rewritten))]))
    }
}
