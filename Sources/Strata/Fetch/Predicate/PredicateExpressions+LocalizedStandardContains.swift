import Foundation

// Foundation on Linux has no `#Predicate` support for `localizedStandardContains`; these declarations give it
// one, with Foundation's string semantics, both in `evaluate` and in the store.
#if !canImport(Darwin)
extension PredicateExpressions {
    /// `text.localizedStandardContains(other)` in a predicate: a case- and diacritic-insensitive, locale-aware
    /// search, as Foundation's `String.localizedStandardContains(_:)`. An empty `other` is never contained.
    ///
    /// ```swift
    /// let search = "dune"
    /// let predicate = #Predicate<Book> { $0.title.localizedStandardContains(search) }
    /// ```
    public struct StringLocalizedStandardContains<Root: PredicateExpression, Other: PredicateExpression>:
        PredicateExpression
    where Root.Output: StringProtocol, Other.Output: StringProtocol {
        /// The text searched.
        public let root: Root
        /// The text searched for.
        public let other: Other

        /// Creates the expression; `#Predicate` calls this through `build_localizedStandardContains`.
        public init(root: Root, other: Other) {
            self.root = root
            self.other = other
        }

        /// Whether `root` contains `other`, as Foundation's `localizedStandardContains`.
        ///
        /// - Throws: what evaluating `root` or `other` throws.
        public func evaluate(_ bindings: PredicateBindings) throws -> Bool {
            StrataText.localizedStandardContains(
                String(try root.evaluate(bindings)), String(try other.evaluate(bindings)))
        }
    }

    /// Builds `root.localizedStandardContains(other)`; `#Predicate` calls this.
    public static func build_localizedStandardContains<Root, Other>(
        _ root: Root, _ other: Other
    ) -> StringLocalizedStandardContains<Root, Other> {
        StringLocalizedStandardContains(root: root, other: other)
    }
}

extension PredicateExpressions.StringLocalizedStandardContains: Codable where Root: Codable, Other: Codable {}
extension PredicateExpressions.StringLocalizedStandardContains: Sendable where Root: Sendable, Other: Sendable {}
extension PredicateExpressions.StringLocalizedStandardContains: StandardPredicateExpression
where Root: StandardPredicateExpression, Other: StandardPredicateExpression {}

extension PredicateExpressions.StringLocalizedStandardContains: QueryTranslatable {
    package func translate(with translator: PredicateTranslator) throws -> TranslatedOperand {
        try translator.call(.localizedStandardContains, root, other, in: self)
    }
}
#endif
