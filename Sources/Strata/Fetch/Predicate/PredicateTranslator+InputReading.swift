import Foundation

/// A predicate node that can tell without evaluating it that it reads the predicate's input (or a closure's
/// variable), so translation skips the trial evaluation — a thrown error — that would find out.
///
/// Only nodes that always evaluate all their operands conform: `&&`, `||` and `?:` may fold to a constant
/// without reading the input, so they are still evaluated.
package protocol PredicateInputReading {
    /// `true` when the node certainly reads the input; `false` when it can't tell.
    var certainlyReadsInput: Bool { get }
}

extension PredicateTranslator {
    /// Whether `expression` certainly reads the predicate's input; `false` means it may or may not.
    static func certainlyReadsInput(_ expression: Any) -> Bool {
        PredicateNodeConformances.inputReading(expression)?.certainlyReadsInput ?? false
    }
}

extension PredicateExpressions.Variable: PredicateInputReading {
    package var certainlyReadsInput: Bool { true }
}

extension PredicateExpressions.KeyPath: PredicateInputReading {
    package var certainlyReadsInput: Bool { PredicateTranslator.certainlyReadsInput(root) }
}

extension PredicateExpressions.Equal: PredicateInputReading {
    package var certainlyReadsInput: Bool {
        PredicateTranslator.certainlyReadsInput(lhs) || PredicateTranslator.certainlyReadsInput(rhs)
    }
}

extension PredicateExpressions.NotEqual: PredicateInputReading {
    package var certainlyReadsInput: Bool {
        PredicateTranslator.certainlyReadsInput(lhs) || PredicateTranslator.certainlyReadsInput(rhs)
    }
}

extension PredicateExpressions.Comparison: PredicateInputReading {
    package var certainlyReadsInput: Bool {
        PredicateTranslator.certainlyReadsInput(lhs) || PredicateTranslator.certainlyReadsInput(rhs)
    }
}
