import Foundation

// Foundation on Linux has no `#Predicate` support for `caseInsensitiveCompare` and `localizedCompare`; these
// declarations give it, with Foundation's string semantics, both in `evaluate` and in the store.
#if !canImport(Darwin)
extension PredicateExpressions {
    /// `text.caseInsensitiveCompare(other)` in a predicate, as Foundation's `String.caseInsensitiveCompare(_:)`.
    ///
    /// Compare its result with a captured constant (the macro rejects `.orderedSame` written inline):
    /// ```swift
    /// let same = ComparisonResult.orderedSame
    /// let predicate = #Predicate<Book> { $0.title.caseInsensitiveCompare(name) == same }
    /// ```
    public struct StringCaseInsensitiveCompare<Root: PredicateExpression, Other: PredicateExpression>:
        PredicateExpression
    where Root.Output: StringProtocol, Other.Output: StringProtocol {
        /// The text compared.
        public let root: Root
        /// The text compared with.
        public let other: Other

        /// Creates the expression; `#Predicate` calls this through `build_caseInsensitiveCompare`.
        public init(root: Root, other: Other) {
            self.root = root
            self.other = other
        }

        /// How `root` orders against `other`, ignoring case.
        ///
        /// - Throws: what evaluating `root` or `other` throws.
        public func evaluate(_ bindings: PredicateBindings) throws -> ComparisonResult {
            StrataText.compare(
                String(try root.evaluate(bindings)), String(try other.evaluate(bindings)), ordering: .caseInsensitive)
        }
    }

    /// `text.localizedCompare(other)` in a predicate, as Foundation's `String.localizedCompare(_:)`: the current
    /// locale's order.
    ///
    /// ```swift
    /// let same = ComparisonResult.orderedSame
    /// let predicate = #Predicate<Book> { $0.title.localizedCompare(name) == same }
    /// ```
    public struct StringLocalizedCompare<Root: PredicateExpression, Other: PredicateExpression>: PredicateExpression
    where Root.Output: StringProtocol, Other.Output: StringProtocol {
        /// The text compared.
        public let root: Root
        /// The text compared with.
        public let other: Other

        /// Creates the expression; `#Predicate` calls this through `build_localizedCompare`.
        public init(root: Root, other: Other) {
            self.root = root
            self.other = other
        }

        /// How `root` orders against `other` in the current locale.
        ///
        /// - Throws: what evaluating `root` or `other` throws.
        public func evaluate(_ bindings: PredicateBindings) throws -> ComparisonResult {
            StrataText.compare(
                String(try root.evaluate(bindings)), String(try other.evaluate(bindings)), ordering: .localized)
        }
    }

    /// Builds `root.localizedCompare(other)`; `#Predicate` calls this.
    public static func build_localizedCompare<Root, Other>(
        _ root: Root, _ other: Other
    ) -> StringLocalizedCompare<Root, Other> {
        StringLocalizedCompare(root: root, other: other)
    }

    /// Builds `root.caseInsensitiveCompare(other)`; `#Predicate` calls this.
    public static func build_caseInsensitiveCompare<Root, Other>(
        _ root: Root, _ other: Other
    ) -> StringCaseInsensitiveCompare<Root, Other> {
        StringCaseInsensitiveCompare(root: root, other: other)
    }
}

extension PredicateExpressions.StringCaseInsensitiveCompare: Codable where Root: Codable, Other: Codable {}
extension PredicateExpressions.StringCaseInsensitiveCompare: Sendable where Root: Sendable, Other: Sendable {}
extension PredicateExpressions.StringCaseInsensitiveCompare: StandardPredicateExpression
where Root: StandardPredicateExpression, Other: StandardPredicateExpression {}

extension PredicateExpressions.StringLocalizedCompare: Codable where Root: Codable, Other: Codable {}
extension PredicateExpressions.StringLocalizedCompare: Sendable where Root: Sendable, Other: Sendable {}
extension PredicateExpressions.StringLocalizedCompare: StandardPredicateExpression
where Root: StandardPredicateExpression, Other: StandardPredicateExpression {}

extension PredicateExpressions.StringCaseInsensitiveCompare: QueryTranslatable {
    package func translate(with translator: PredicateTranslator) throws -> TranslatedOperand {
        try translator.stringComparison(root, other, ordering: .caseInsensitive, in: self)
    }
}

extension PredicateExpressions.StringLocalizedCompare: QueryTranslatable {
    package func translate(with translator: PredicateTranslator) throws -> TranslatedOperand {
        try translator.stringComparison(root, other, ordering: .localized, in: self)
    }
}

extension PredicateTranslator {
    /// The store's `compare` of two strings under `ordering`, giving a `ComparisonResult`'s raw value.
    fileprivate func stringComparison(
        _ root: some PredicateExpression, _ other: some PredicateExpression, ordering: StrataStringOrdering,
        in expression: some PredicateExpression
    ) throws -> TranslatedOperand {
        try call(.compare, root, other, extra: [.value(.integer(ordering.rawValue))], in: expression)
    }
}
#endif
