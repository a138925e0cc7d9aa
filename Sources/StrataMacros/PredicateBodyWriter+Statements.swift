import SwiftSyntax

extension PredicateBodyWriter {
    /// A closure of the predicate (its own, or one passed to `contains(where:)`, `filter`, …): its parameters typed as
    /// `PredicateExpressions.Variable`s, its return type dropped, its one expression translated.
    mutating func closure(_ node: ClosureExprSyntax, depth: Int) -> String {
        let body = singleExpression(node.statements, in: node, depth: depth + 1, keepsReturn: true) ?? ""
        let head = node.signature.map { "{ \(Self.variableSignature($0).trimmedDescription)" } ?? "{"
        return "\(head)\n\(Self.indentation(depth + 1))\(body)\n\(Self.indentation(depth))}"
    }

    /// `(item: Item) -> Bool in` as `(item: PredicateExpressions.Variable<Item>) in`.
    private static func variableSignature(_ signature: ClosureSignatureSyntax) -> ClosureSignatureSyntax {
        var rewritten = signature.with(\.returnClause, nil)
        if let clause = signature.parameterClause?.as(ClosureParameterClauseSyntax.self) {
            let parameters = clause.parameters.map { parameter in
                guard let type = parameter.type else { return parameter }
                return parameter.with(
                    \.type, "PredicateExpressions.Variable<\(raw: type.trimmedDescription)>")
            }
            rewritten.parameterClause = .parameterClause(
                clause.with(\.parameters, ClosureParameterListSyntax(parameters)))
        }
        return rewritten
    }

    /// The one expression of a body, translated, or `nil` with a diagnostic. `return` is kept in a closure's body
    /// and dropped in an `if` branch, which becomes an operand.
    private mutating func singleExpression(
        _ statements: CodeBlockItemListSyntax, in owner: some SyntaxProtocol, depth: Int, keepsReturn: Bool
    ) -> String? {
        guard statements.count == 1, let item = statements.first else {
            let anchor = statements.dropFirst().first.map(Syntax.init) ?? Syntax(owner)
            diagnose(anchor, "\(kind.typeName) body may only contain one expression")
            return nil
        }
        if let expression = item.item.as(ExprSyntax.self) {
            return operand(expression, depth: depth)
        }
        if let statement = item.item.as(StmtSyntax.self) {
            return self.statement(statement, depth: depth, keepsReturn: keepsReturn)
        }
        diagnose(item, "Declarations are not supported in this \(kind.noun)")
        return nil
    }

    private mutating func statement(_ node: StmtSyntax, depth: Int, keepsReturn: Bool) -> String? {
        if let returned = node.as(ReturnStmtSyntax.self) {
            guard let expression = returned.expression else { return "return" }
            let translated = operand(expression, depth: depth)
            return keepsReturn ? "return \(translated)" : translated
        }
        if let expression = node.as(ExpressionStmtSyntax.self)?.expression {
            return operand(expression, depth: depth)
        }
        if let doStatement = node.as(DoStmtSyntax.self) {
            if let catchClause = doStatement.catchClauses.first {
                diagnose(catchClause, "Catch clauses are not supported in this \(kind.noun)")
                return nil
            }
            return singleExpression(
                doStatement.body.statements, in: doStatement, depth: depth, keepsReturn: keepsReturn)
        }
        let message =
            if node.is(WhileStmtSyntax.self) {
                "While loops are"
            } else if node.is(ForStmtSyntax.self) {
                "For-in loops are"
            } else if node.is(RepeatStmtSyntax.self) {
                "Repeat-while loops are"
            } else {
                "This statement is"
            }
        diagnose(node, "\(message) not supported in this \(kind.noun)")
        return nil
    }

    // MARK: if

    /// `if c { a } else { b }` as `build_Conditional(c, a, b)`; `if let x = o { a } else { b }` as
    /// `build_NilCoalesce(lhs: build_flatMap(o) { x in a }, rhs: b)`.
    mutating func ifExpression(_ node: IfExprSyntax, depth: Int) -> String? {
        let bindings = node.conditions.compactMap { $0.condition.as(OptionalBindingConditionSyntax.self) }
        if !bindings.isEmpty, bindings.count == node.conditions.count {
            return optionalBindings(node, bindings[...], depth: depth)
        }
        guard let condition = joinedCondition(node.conditions, in: node),
            let body = singleExpression(node.body.statements, in: node.body, depth: depth + 1, keepsReturn: false),
            let otherwise = elseBranch(of: node, depth: depth + 1)
        else { return nil }
        return Self.render(
            "build_Conditional",
            [
                BuilderArgument(label: nil, operand(condition, depth: depth + 1)), BuilderArgument(label: nil, body),
                BuilderArgument(label: nil, otherwise),
            ],
            depth: depth)
    }

    private mutating func optionalBindings(
        _ node: IfExprSyntax, _ bindings: ArraySlice<OptionalBindingConditionSyntax>, depth: Int
    ) -> String? {
        guard let unwrapped = flatMaps(bindings, body: node.body, depth: depth + 1),
            let otherwise = elseBranch(of: node, depth: depth + 1)
        else { return nil }
        return Self.render(
            "build_NilCoalesce",
            [BuilderArgument(label: "lhs", unwrapped), BuilderArgument(label: "rhs", otherwise)],
            depth: depth)
    }

    /// Each binding as a `build_flatMap` whose closure holds the next, the body innermost.
    private mutating func flatMaps(
        _ bindings: ArraySlice<OptionalBindingConditionSyntax>, body: CodeBlockSyntax, depth: Int
    ) -> String? {
        guard let binding = bindings.first else {
            return singleExpression(body.statements, in: body, depth: depth, keepsReturn: false)
        }
        guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier else {
            diagnose(binding.pattern, "This optional binding condition is not supported in this \(kind.noun)")
            return nil
        }
        let unwrapped = binding.initializer?.value ?? ExprSyntax(DeclReferenceExprSyntax(baseName: name.trimmed))
        let source = operand(unwrapped, depth: depth + 1)
        guard let inner = flatMaps(bindings.dropFirst(), body: body, depth: depth + 1) else { return nil }
        let closure = "{ \(name.text) in\n\(Self.indentation(depth + 1))\(inner)\n\(Self.indentation(depth))}"
        return Self.render(
            "build_flatMap", [BuilderArgument(label: nil, source)], trailingClosure: closure, depth: depth)
    }

    /// The conditions of an `if` joined with `&&`, or `nil` with a diagnostic for one that isn't a Boolean expression.
    private mutating func joinedCondition(
        _ conditions: ConditionElementListSyntax, in node: IfExprSyntax
    ) -> ExprSyntax? {
        var joined: ExprSyntax?
        for element in conditions {
            guard let expression = element.condition.as(ExprSyntax.self) else {
                let what =
                    if element.condition.is(OptionalBindingConditionSyntax.self) {
                        "Mixing optional bindings with other conditions is"
                    } else if element.condition.is(AvailabilityConditionSyntax.self) {
                        "Availability conditions are"
                    } else if element.condition.is(MatchingPatternConditionSyntax.self) {
                        "Matching pattern conditions are"
                    } else {
                        "These types of conditions are"
                    }
                diagnose(element, "\(what) not supported in this \(kind.noun)")
                return nil
            }
            joined =
                joined.map { left in
                    ExprSyntax(
                        InfixOperatorExprSyntax(
                            leftOperand: left, operator: BinaryOperatorExprSyntax(operator: .binaryOperator("&&")),
                            rightOperand: expression))
                } ?? expression
        }
        guard let joined else {
            diagnose(node, "This list of conditionals is unsupported in this \(kind.noun)")
            return nil
        }
        return joined
    }

    /// The `else` of an `if`, which a predicate needs: a block's one expression, or an `else if`.
    private mutating func elseBranch(of node: IfExprSyntax, depth: Int) -> String? {
        if let block = node.elseBody?.as(CodeBlockSyntax.self) {
            return singleExpression(block.statements, in: block, depth: depth, keepsReturn: false)
        }
        if let elseIf = node.elseBody?.as(IfExprSyntax.self) {
            return ifExpression(elseIf, depth: depth)
        }
        diagnose(node, "If expressions without an else expression are not supported in this \(kind.noun)")
        return nil
    }
}
