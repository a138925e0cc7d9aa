extension QueryExpression {
    /// The names of the entities the expression reads through relationships (the destinations of every hop,
    /// nested ones included); empty when it reads only the entity in scope.
    ///
    /// Live results over a fetch with such a predicate or sort must also refresh when these entities change:
    /// renaming an author changes which books `$0.author?.name == "Le Guin"` matches.
    package var relatedEntityNames: Set<String> {
        var names: Set<String> = []
        collectRelatedEntityNames(into: &names)
        return names
    }

    private func collectRelatedEntityNames(into names: inout Set<String>) {
        switch self {
        case .column, .value, .constant:
            return
        case .equal(let left, let right), .notEqual(let left, let right), .compare(let left, _, let right),
            .arithmetic(_, let left, let right, _):
            left.collectRelatedEntityNames(into: &names)
            right.collectRelatedEntityNames(into: &names)
        case .and(let operands), .or(let operands), .function(_, let operands):
            for operand in operands { operand.collectRelatedEntityNames(into: &names) }
        case .not(let operand), .isNull(let operand), .collated(let operand, _):
            operand.collectRelatedEntityNames(into: &names)
        case .in(let operand, let list):
            for expression in [operand] + list { expression.collectRelatedEntityNames(into: &names) }
        case .between(let operand, let lower, let upper), .case(let operand, let lower, let upper):
            for expression in [operand, lower, upper] { expression.collectRelatedEntityNames(into: &names) }
        case .related(let path, let expression):
            names.formUnion(path.hops.map(\.destination.name))
            expression.collectRelatedEntityNames(into: &names)
        case .exists(let query), .relatedCount(let query):
            query.collectEntityNames(into: &names)
        case .relatedAggregate(_, let query, let expression):
            query.collectEntityNames(into: &names)
            expression.collectRelatedEntityNames(into: &names)
        }
    }
}

extension RelatedQuery {
    fileprivate func collectEntityNames(into names: inout Set<String>) {
        names.formUnion(path.hops.map(\.destination.name))
        if let condition { names.formUnion(condition.relatedEntityNames) }
    }
}
