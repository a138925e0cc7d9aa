import SwiftSyntax

/// Rewrites a predicate's optional chains as explicit `flatMap` calls before it is translated:
/// `$0.author?.name` becomes `$0.author.flatMap { $0.name }`, which the translation turns into
/// `PredicateExpressions.build_flatMap`, as Foundation's `#Predicate` does.
///
/// A chain is the outermost member access or call of an expression. The `?` nearest its top is lifted first and
/// what it applied to is rewritten in turn, so `a?.b?.c` becomes `a.flatMap { $0.b }.flatMap { $0.c }`. A call whose
/// arguments use `$0`, `$1`, … can't move into a closure (they would name the closure's parameter instead), so a chain
/// through one is left as written and the translation reports it. A closure inside a chain is rewritten on its own.
final class OptionalChainLifter: SyntaxRewriter {
    /// Whether a chain may start at the node being visited.
    private var chainMayStart = true
    /// Whether the visit is inside a chain whose top has been seen.
    private var insideChain = false
    /// What the lifted `?` applied to, replaced by `$0` in the chain.
    private var liftedOperand: ExprSyntax?
    /// Whether anything was lifted.
    private(set) var lifted = false

    /// `expression` with its optional chains lifted.
    static func lifting(_ expression: ExprSyntax) -> ExprSyntax {
        let lifter = OptionalChainLifter(viewMode: .sourceAccurate)
        let result = lifter.rewrite(expression)
        return lifter.lifted ? result.cast(ExprSyntax.self) : expression
    }

    override func visit(_ node: MemberAccessExprSyntax) -> ExprSyntax {
        visitChainNode(node) { super.visit($0) }
    }

    override func visit(_ node: FunctionCallExprSyntax) -> ExprSyntax {
        let enclosingMayStart = chainMayStart
        defer { chainMayStart = enclosingMayStart }
        if node.arguments.usesShorthandParameters {
            chainMayStart = false
        }
        return visitChainNode(node) { super.visit($0) }
    }

    override func visit(_ node: OptionalChainingExprSyntax) -> ExprSyntax {
        guard insideChain else { return super.visit(node) }
        liftedOperand = node.expression
        return ExprSyntax(DeclReferenceExprSyntax(baseName: .dollarIdentifier("$0")))
    }

    override func visit(_ node: ClosureExprSyntax) -> ExprSyntax {
        guard insideChain else { return super.visit(node) }
        // The closure's own chains are its own: lifting them out of it would move `$0` out of its scope.
        let nested = OptionalChainLifter(viewMode: .sourceAccurate)
        let rewritten = nested.rewrite(node)
        lifted = lifted || nested.lifted
        return rewritten.cast(ExprSyntax.self)
    }

    /// Visits a member access or call: the top of a chain when no chain encloses it, in which case a `?` found
    /// below it becomes a `flatMap` around it.
    private func visitChainNode<Node: ExprSyntaxProtocol>(
        _ node: Node, visitChildren: (Node) -> ExprSyntax
    ) -> ExprSyntax {
        guard !insideChain, chainMayStart else { return visitChildren(node) }
        insideChain = true
        let chain = visitChildren(node)
        insideChain = false
        guard let operand = liftedOperand else { return chain }
        liftedOperand = nil
        lifted = true
        let base = visit(operand)
        let closure = ClosureExprSyntax(statements: [CodeBlockItemSyntax(item: .expr(chain))])
        return ExprSyntax(
            FunctionCallExprSyntax(
                calledExpression: MemberAccessExprSyntax(base: base, name: "flatMap"),
                leftParen: .leftParenToken(), arguments: [], rightParen: .rightParenToken(),
                trailingClosure: closure))
    }
}

extension SyntaxProtocol {
    /// Whether the syntax uses a closure's shorthand parameters (`$0`, `$1`, …).
    var usesShorthandParameters: Bool {
        tokens(viewMode: .sourceAccurate).contains { token in
            if case .dollarIdentifier(let name) = token.tokenKind {
                return name.dropFirst().allSatisfy(\.isNumber)
            }
            return false
        }
    }
}
