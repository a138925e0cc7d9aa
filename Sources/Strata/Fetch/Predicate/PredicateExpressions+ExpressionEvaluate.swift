import Foundation

// `expression.evaluate($0)`: a Foundation `Expression` applied to the predicate's input. The expression is a value
// known before the query runs, so its own tree is translated in place, each of its variables standing for what the
// call passes it. Foundation's `#Predicate` macro on Linux refuses `evaluate(_:)` (it allows the call only where
// Foundation is Apple's framework), so such predicates are built with `PredicateExpressions.build_evaluate`; see the
// README's compatibility notes.
extension PredicateExpressions.ExpressionEvaluate: QueryTranslatable {
    package func translate(with translator: PredicateTranslator) throws -> TranslatedOperand {
        guard let constant = PredicateTranslator.constantValue(of: expression),
            let evaluated = constant.value as? Expression<repeat (each Input).Output, Output>
        else {
            throw translator.unsupported(self, "the expression evaluated must be a value known before the query runs")
        }
        var variables: [PredicateExpressions.VariableID] = []
        for variable in repeat each evaluated.variable { variables.append(variable.key) }
        var arguments: [TranslatedOperand] = []
        for argument in repeat each input { arguments.append(try translator.operand(argument)) }
        let scoped = zip(variables, arguments).reduce(translator) { $0.binding($1.0, to: $1.1) }
        return try scoped.operand(evaluated.expression)
    }
}
