import SwiftDiagnostics
import SwiftSyntax

/// Writes a predicate closure's body as the tree of `PredicateExpressions.build_…` calls Foundation's `#Predicate`
/// writes: `$0.title == name` becomes `build_Equal(lhs: build_KeyPath(root: build_Arg($0), keyPath: \.title),
/// rhs: build_Arg(name))`.
///
/// Operators, member accesses, the supported method calls, casts, conditionals and `nil` become builder calls; any
/// other expression (a literal, a captured value, the closure's parameter) is a value, passed through `build_Arg`.
/// What the grammar can't express is recorded in ``diagnostics`` and the expansion fails with all of them.
struct PredicateBodyWriter {
    /// Predicate or expression, for the messages.
    let kind: PredicateMacroKind
    /// The errors found so far.
    private(set) var diagnostics: [Diagnostic] = []

    init(kind: PredicateMacroKind) {
        self.kind = kind
    }

    /// `expression` as an argument of a builder call: its translation, or `build_Arg(expression)` for a value.
    mutating func operand(_ expression: ExprSyntax, depth: Int) -> String {
        translation(of: expression, depth: depth) ?? Self.value(expression)
    }

    /// `expression` as builder calls, or `nil` when it is a value the predicate takes as it is.
    mutating func translation(of expression: ExprSyntax, depth: Int) -> String? {
        switch expression.as(ExprSyntaxEnum.self) {
        case .infixOperatorExpr(let infix): return binaryOperation(infix, depth: depth)
        case .prefixOperatorExpr(let prefix): return prefixOperation(prefix, depth: depth)
        case .memberAccessExpr(let member): return memberAccess(member, depth: depth)
        case .functionCallExpr(let call): return functionCall(call, depth: depth)
        case .subscriptCallExpr(let call): return subscriptCall(call, depth: depth)
        case .forceUnwrapExpr(let unwrap):
            return builderCall("build_ForcedUnwrap", [(nil, unwrap.expression)], depth: depth)
        case .nilLiteralExpr: return "PredicateExpressions.build_NilLiteral()"
        case .tupleExpr(let tuple): return parenthesized(tuple, depth: depth)
        case .ternaryExpr(let ternary):
            return builderCall(
                "build_Conditional",
                [(nil, ternary.condition), (nil, ternary.thenExpression), (nil, ternary.elseExpression)],
                depth: depth)
        case .isExpr(let check):
            return builderCall(
                "TypeCheck<_, \(check.type.trimmedDescription)>", [(nil, check.expression)], depth: depth)
        case .asExpr(let cast):
            let conditional = cast.questionOrExclamationMark?.tokenKind == .postfixQuestionMark
            let name = "\(conditional ? "ConditionalCast" : "ForceCast")<_, \(cast.type.trimmedDescription)>"
            return builderCall(name, [(nil, cast.expression)], depth: depth)
        case .closureExpr(let closure): return self.closure(closure, depth: depth)
        case .ifExpr(let conditional): return ifExpression(conditional, depth: depth)
        case .switchExpr(let switchExpression):
            diagnose(switchExpression, "Switch expressions are not supported in this \(kind.noun)")
            return nil
        case .optionalChainingExpr(let chaining):
            diagnose(
                chaining.questionMark,
                "Optional chaining is not supported here in this \(kind.noun). Use the flatMap(_:) function explicitly "
                    + "instead.")
            return nil
        case .sequenceExpr(let sequence):
            // Left unfolded only when an operator isn't one Swift's standard library declares.
            diagnose(sequence, "The operators in this expression are not supported in this \(kind.noun)")
            return nil
        default:
            return nil
        }
    }

    /// `build_Arg(value)`: a literal, a captured value or a parameter, as the tree's leaf.
    static func value(_ expression: some SyntaxProtocol) -> String {
        "PredicateExpressions.build_Arg(\(expression.trimmedDescription))"
    }

    // MARK: Operators

    /// The builder and its extra argument for each infix operator the grammar has.
    private static let binaryOperators: [String: (builder: String, operation: String?)] = [
        "==": ("build_Equal", nil), "!=": ("build_NotEqual", nil),
        "<": ("build_Comparison", ".lessThan"), "<=": ("build_Comparison", ".lessThanOrEqual"),
        ">": ("build_Comparison", ".greaterThan"), ">=": ("build_Comparison", ".greaterThanOrEqual"),
        "&&": ("build_Conjunction", nil), "||": ("build_Disjunction", nil),
        "+": ("build_Arithmetic", ".add"), "-": ("build_Arithmetic", ".subtract"),
        "*": ("build_Arithmetic", ".multiply"), "/": ("build_Division", nil), "%": ("build_Remainder", nil),
        "??": ("build_NilCoalesce", nil), "...": ("build_ClosedRange", nil), "..<": ("build_Range", nil),
    ]

    private mutating func binaryOperation(_ node: InfixOperatorExprSyntax, depth: Int) -> String? {
        guard let symbol = node.operator.as(BinaryOperatorExprSyntax.self)?.operator.text else {
            diagnose(
                node.operator,
                "The '\(node.operator.trimmedDescription)' operator is not supported in this \(kind.noun)")
            return nil
        }
        guard let (builder, operation) = Self.binaryOperators[symbol] else {
            diagnose(node.operator, "The '\(symbol)' operator is not supported in this \(kind.noun)")
            return nil
        }
        let isRange = symbol == "..." || symbol == "..<"
        var arguments: [BuilderArgument] = [
            .init(label: isRange ? "lower" : "lhs", operand(node.leftOperand, depth: depth + 1)),
            .init(label: isRange ? "upper" : "rhs", operand(node.rightOperand, depth: depth + 1)),
        ]
        if let operation {
            arguments.append(.init(label: "op", operation))
        }
        return Self.render(builder, arguments, depth: depth)
    }

    private mutating func prefixOperation(_ node: PrefixOperatorExprSyntax, depth: Int) -> String? {
        switch node.operator.text {
        case "!": return builderCall("build_Negation", [(nil, node.expression)], depth: depth)
        case "-": return builderCall("build_UnaryMinus", [(nil, node.expression)], depth: depth)
        default:
            diagnose(node.operator, "The '\(node.operator.text)' operator is not supported in this \(kind.noun)")
            return nil
        }
    }

    // MARK: Members and parentheses

    private mutating func memberAccess(_ node: MemberAccessExprSyntax, depth: Int) -> String? {
        guard let base = node.base else {
            diagnose(node, "Member access without an explicit base is not supported in this \(kind.noun)")
            return nil
        }
        return Self.render(
            "build_KeyPath",
            [
                .init(label: "root", operand(base, depth: depth + 1)),
                .init(label: "keyPath", "\\.\(node.declName.trimmedDescription)"),
            ],
            depth: depth)
    }

    /// `(x)` is `x`; a tuple of several values has no expression.
    private mutating func parenthesized(_ node: TupleExprSyntax, depth: Int) -> String? {
        guard node.elements.count == 1, let element = node.elements.first else {
            diagnose(node, "Tuples are not supported in this \(kind.noun)")
            return nil
        }
        return translation(of: element.expression, depth: depth)
    }

    // MARK: Writing calls

    /// One argument of a builder call as written: its label and its text.
    struct BuilderArgument {
        let label: String?
        let text: String

        init(label: String?, _ text: String) {
            self.label = label
            self.text = text
        }
    }

    /// `PredicateExpressions.<builder>(…)` with each expression as an operand.
    mutating func builderCall(_ builder: String, _ operands: [(String?, ExprSyntax)], depth: Int) -> String {
        let arguments = operands.map { BuilderArgument(label: $0.0, operand($0.1, depth: depth + 1)) }
        return Self.render(builder, arguments, depth: depth)
    }

    /// The call's text, one argument per line, indented by `depth`; a trailing closure follows the parenthesis.
    static func render(
        _ builder: String, _ arguments: [BuilderArgument], trailingClosure: String? = nil, depth: Int
    ) -> String {
        let inner = indentation(depth + 1)
        let lines = arguments.map { argument in inner + (argument.label.map { "\($0): " } ?? "") + argument.text }
        let closure = trailingClosure.map { " \($0)" } ?? ""
        if lines.isEmpty {
            return "PredicateExpressions.\(builder)()\(closure)"
        }
        return "PredicateExpressions.\(builder)(\n\(lines.joined(separator: ",\n"))\n\(indentation(depth)))\(closure)"
    }

    /// Four spaces a level.
    static func indentation(_ depth: Int) -> String {
        String(repeating: " ", count: 4 * depth)
    }

    // MARK: Diagnostics

    /// Records an error at `node`.
    mutating func diagnose(_ node: some SyntaxProtocol, _ message: String, fixIt: FixIt? = nil) {
        diagnostics.append(StrataDiagnostic("predicateUnsupported", message).at(node, fixIt: fixIt))
    }
}
