extension Application {
    /// Names one value stored in an ``Application``: the feature it belongs to and its id.
    ///
    /// Two declarations with the same scope and value type share one cached value.
    public struct Scope: Hashable, Sendable, CustomStringConvertible {
        /// The feature the value belongs to, `"App"` unless given.
        public let feature: String
        /// The value's identifier within its feature.
        public let id: String

        /// Creates a scope from a feature name and an identifier.
        public init(feature: String, id: String) {
            self.feature = feature
            self.id = id
        }

        /// `feature.id`, as it appears in log entries.
        public var description: String { "\(feature).\(id)" }
    }

    /// The scope for a declaration: `id` when given, otherwise one derived from the call site.
    ///
    /// A derived id names the declaring function and its file, line and column, so two
    /// declarations never share one. Wrappers around ``dependency(_:feature:id:fileID:function:line:column:)``
    /// (such as a future `modelContainer(_:)`) forward their own call-site parameters here so each
    /// of their call sites keeps a distinct id.
    package static func scope(
        feature: String,
        id: String?,
        fileID: StaticString,
        function: StaticString,
        line: Int,
        column: Int
    ) -> Scope {
        if let id {
            return Scope(feature: feature, id: id)
        }
        return Scope(feature: feature, id: "\(function) @ \(fileID):\(line):\(column)")
    }
}
