import Foundation

extension FormatPredicate {
    /// A predicate true when every subpredicate is (`TRUEPREDICATE` for none). Nested `AND`s are
    /// flattened; the first error among the subpredicates is kept.
    public init(andPredicateWithSubpredicates subpredicates: [FormatPredicate]) {
        self.init(compound: subpredicates, isAnd: true)
    }

    /// A predicate true when any subpredicate is (`FALSEPREDICATE` for none). Nested `OR`s are
    /// flattened; the first error among the subpredicates is kept.
    public init(orPredicateWithSubpredicates subpredicates: [FormatPredicate]) {
        self.init(compound: subpredicates, isAnd: false)
    }

    /// The negation of `subpredicate` (which keeps its error, if any).
    public init(notPredicateWithSubpredicate subpredicate: FormatPredicate) {
        guard let expression = subpredicate.expression else {
            self = subpredicate
            return
        }
        self.init(expression: .not(expression))
    }

    private init(compound subpredicates: [FormatPredicate], isAnd: Bool) {
        var members: [FormatExpression] = []
        for subpredicate in subpredicates {
            guard let expression = subpredicate.expression else {
                self = subpredicate
                return
            }
            switch (expression, isAnd) {
            case (.and(let nested), true), (.or(let nested), false): members += nested
            default: members.append(expression)
            }
        }
        switch members.count {
        case 0: self.init(value: isAnd)
        case 1: self.init(expression: members[0])
        default: self.init(expression: isAnd ? .and(members) : .or(members))
        }
    }

    /// `lhs AND rhs`.
    public static func && (lhs: FormatPredicate, rhs: FormatPredicate) -> FormatPredicate {
        FormatPredicate(andPredicateWithSubpredicates: [lhs, rhs])
    }

    /// `lhs OR rhs`.
    public static func || (lhs: FormatPredicate, rhs: FormatPredicate) -> FormatPredicate {
        FormatPredicate(orPredicateWithSubpredicates: [lhs, rhs])
    }

    /// `NOT predicate`.
    public static prefix func ! (predicate: FormatPredicate) -> FormatPredicate {
        FormatPredicate(notPredicateWithSubpredicate: predicate)
    }

    /// A copy with `$variables` replaced by `variables`' values, like
    /// `NSPredicate.withSubstitutionVariables(_:)`. Variables not in the dictionary stay (and make
    /// ``validated()`` throw); variables bound by a `SUBQUERY` are never replaced.
    ///
    /// ```swift
    /// let template = FormatPredicate(format: "priority >= $MIN")
    /// let predicate = template.withSubstitutionVariables(["MIN": 2])
    /// ```
    ///
    /// A value that cannot become a constant (see `FormatValue.init(argument:)`) makes the copy
    /// hold a ``PredicateFormatError/Kind/variableTypeMismatch(name:got:)`` error.
    public func withSubstitutionVariables(_ variables: [String: any Sendable]) -> FormatPredicate {
        guard let expression else { return self }
        var values: [String: FormatValue] = [:]
        for (name, argument) in variables.sorted(by: { $0.key < $1.key }) {
            guard let value = FormatValue(argument: argument) else {
                let got = FormatValue.typeName(of: argument)
                return FormatPredicate(
                    failing: variableError(
                        .variableTypeMismatch(name: name, got: got), name: name,
                        message: "Variable $\(name) cannot take a value of type \(got)"))
            }
            values[name] = value
        }
        return FormatPredicate(expression: expression.substituting(values))
    }
}
