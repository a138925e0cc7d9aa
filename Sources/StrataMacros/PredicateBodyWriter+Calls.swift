import SwiftDiagnostics
import SwiftSyntax

extension PredicateBodyWriter {
    /// `base.name(arguments)` as `build_name(base, arguments)`, for the methods ``PredicateFunction`` lists.
    mutating func functionCall(_ node: FunctionCallExprSyntax, depth: Int) -> String? {
        guard let member = node.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base else {
            if node.calledExpression.is(DeclReferenceExprSyntax.self)
                || node.calledExpression.is(MemberAccessExprSyntax.self)
            {
                diagnose(node, "Global functions are not supported in this \(kind.noun)")
            } else {
                diagnose(node.calledExpression, "Calling this expression is not supported in this \(kind.noun)")
            }
            return nil
        }
        return method(
            member.declName.baseName.text, of: base, arguments: node.arguments, trailingClosure: node.trailingClosure,
            additionalClosures: node.additionalTrailingClosures, at: member.declName, call: node, depth: depth)
    }

    /// `base[index]` as `build_subscript(base, index)`.
    mutating func subscriptCall(_ node: SubscriptCallExprSyntax, depth: Int) -> String? {
        method(
            "subscript", of: node.calledExpression, arguments: node.arguments, trailingClosure: node.trailingClosure,
            additionalClosures: node.additionalTrailingClosures, at: node.leftSquare, call: nil, depth: depth)
    }

    /// A supported method's builder call, or a diagnostic (with the replacement as a fix-it where there is one).
    private mutating func method(
        _ name: String, of base: ExprSyntax, arguments: LabeledExprListSyntax, trailingClosure: ClosureExprSyntax?,
        additionalClosures: MultipleTrailingClosureElementListSyntax, at anchor: some SyntaxProtocol,
        call: FunctionCallExprSyntax?, depth: Int
    ) -> String? {
        let labels = arguments.map { $0.label?.text }
        guard additionalClosures.isEmpty,
            let parameters = PredicateFunction.parameters(
                ofCall: name, labels: labels, trailingClosure: trailingClosure != nil)
        else {
            let written = labels + (trailingClosure == nil ? [] : [nil])
            let signature = "\(name)(\(written.map { "\($0 ?? "_"):" }.joined()))"
            let replacement = PredicateFunction.replacement(for: name, labels: labels)
            diagnose(
                anchor, "The \(signature) function is not supported in this \(kind.noun)",
                fixIt: replacement.flatMap { replacement in call.flatMap { Self.fixIt(call: $0, calling: replacement) }
                })
            return nil
        }
        var builderArguments = [BuilderArgument(label: nil, operand(base, depth: depth + 1))]
        for (argument, parameter) in zip(arguments, parameters) {
            var expression = argument.expression
            if case .closure = parameter, let keyPath = expression.as(KeyPathExprSyntax.self) {
                guard let closure = Self.closure(applying: keyPath) else {
                    diagnose(
                        keyPath,
                        "This key path is not supported here in this \(kind.noun). Use an explicit closure instead.")
                    return nil
                }
                expression = closure
            }
            builderArguments.append(BuilderArgument(label: argument.label?.text, operand(expression, depth: depth + 1)))
        }
        let closure = trailingClosure.map { self.closure($0, depth: depth) }
        return Self.render("build_\(name)", builderArguments, trailingClosure: closure, depth: depth)
    }

    /// `\.author?.name` as the closure `{ $0.author.flatMap { $0.name } }`, for a parameter that takes a closure;
    /// `nil` for a key path that uses `$0` itself or has a component a closure can't spell.
    private static func closure(applying keyPath: KeyPathExprSyntax) -> ExprSyntax? {
        guard !keyPath.usesShorthandParameters else { return nil }
        var applied = ExprSyntax(DeclReferenceExprSyntax(baseName: .dollarIdentifier("$0")))
        for element in keyPath.components {
            if let property = element.component.as(KeyPathPropertyComponentSyntax.self) {
                applied = ExprSyntax(MemberAccessExprSyntax(base: applied, declName: property.declName))
            } else if let optional = element.component.as(KeyPathOptionalComponentSyntax.self) {
                applied =
                    optional.questionOrExclamationMark.tokenKind == .exclamationMark
                    ? ExprSyntax(ForceUnwrapExprSyntax(expression: applied))
                    : ExprSyntax(OptionalChainingExprSyntax(expression: applied))
            } else if let subscriptComponent = element.component.as(KeyPathSubscriptComponentSyntax.self) {
                applied = ExprSyntax(
                    SubscriptCallExprSyntax(calledExpression: applied, arguments: subscriptComponent.arguments))
            } else {
                return nil
            }
        }
        let body = OptionalChainLifter.lifting(applied)
        return ExprSyntax(ClosureExprSyntax(statements: [CodeBlockItemSyntax(item: .expr(body))]))
    }

    /// The fix-it rewriting `call` as a call of `replacement`: its name and argument labels.
    private static func fixIt(call: FunctionCallExprSyntax, calling replacement: PredicateFunction) -> FixIt? {
        guard let member = call.calledExpression.as(MemberAccessExprSyntax.self),
            call.arguments.count == replacement.parameters.count, call.trailingClosure == nil
        else { return nil }
        var rewritten = call
        rewritten.calledExpression = ExprSyntax(
            member.with(\.declName, DeclReferenceExprSyntax(baseName: .identifier(replacement.name))))
        rewritten.arguments = LabeledExprListSyntax(
            zip(call.arguments, replacement.parameters).map { argument, parameter in
                guard let label = parameter.label else {
                    return argument.with(\.label, nil).with(\.colon, nil)
                        .with(\.expression, argument.expression.with(\.leadingTrivia, []))
                }
                return argument.with(\.label, .identifier(label)).with(\.colon, .colonToken(trailingTrivia: .space))
                    .with(\.expression, argument.expression.with(\.leadingTrivia, []))
            })
        return FixIt(
            message: StrataFixIt("Use \(replacement.signature)"),
            changes: [.replace(oldNode: Syntax(call), newNode: Syntax(rewritten))])
    }
}
