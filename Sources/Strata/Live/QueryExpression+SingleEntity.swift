extension QueryExpression {
    /// Whether the expression reads nothing but stored attributes (or the primary key) of `entity`'s own row: no
    /// foreign keys, no related rows. Only such a condition can be judged from the row alone, which is what an incremental
    /// refresh of a `ResultsObserver` does.
    ///
    /// A node this check doesn't know counts as reading something else, so new kinds of expression are
    /// refreshed by a full refetch until they are classified here.
    package func readsOnlyAttributes(of entity: Schema.Entity) -> Bool {
        if case .column(let name) = self {
            if name == StoreLayout.primaryKeyColumn { return true }
            guard let property = entity.property(named: name), case .attribute = property.kind else { return false }
            return true
        }
        if case .value = self { return true }
        if case .constant = self { return true }
        guard let operands else { return false }
        return operands.allSatisfy { $0.readsOnlyAttributes(of: entity) }
    }

    /// Adds the names of the columns the expression reads to `names`: for an expression that
    /// ``readsOnlyAttributes(of:)``, the names of the attributes it reads (and the primary key's column).
    package func collectColumnNames(into names: inout Set<String>) {
        if case .column(let name) = self {
            names.insert(name)
            return
        }
        for operand in operands ?? [] { operand.collectColumnNames(into: &names) }
    }

    /// The sub-expressions of a node that only combines them; `nil` for any other node.
    // Written as `if case` rather than a `switch` so a case added to the tree later falls through to `nil`.
    private var operands: [QueryExpression]? {
        if case .equal(let left, let right) = self { return [left, right] }
        if case .notEqual(let left, let right) = self { return [left, right] }
        if case .compare(let left, _, let right) = self { return [left, right] }
        if case .and(let terms) = self { return terms }
        if case .or(let terms) = self { return terms }
        if case .not(let term) = self { return [term] }
        if case .arithmetic(_, let left, let right, _) = self { return [left, right] }
        if case .function(_, let arguments) = self { return arguments }
        if case .isNull(let term) = self { return [term] }
        if case .in(let term, let list) = self { return [term] + list }
        if case .between(let term, let lower, let upper) = self { return [term, lower, upper] }
        if case .case(let condition, let then, let otherwise) = self { return [condition, then, otherwise] }
        // A collation only says how strings compare; `.swift` (the one `#Predicate` gets) is Swift's own order.
        if case .collated(let term, _) = self { return [term] }
        return nil
    }
}
