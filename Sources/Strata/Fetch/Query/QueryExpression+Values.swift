extension QueryExpression {
    /// Calls `body` with each bound value (`.value`) of the expression, depth first, operands left to right.
    package func forEachValue(_ body: (StoredValue) -> Void) {
        switch self {
        case .value(let value):
            body(value)
        case .column, .constant:
            break
        case .equal(let left, let right), .notEqual(let left, let right), .compare(let left, _, let right),
            .arithmetic(_, let left, let right, _):
            left.forEachValue(body)
            right.forEachValue(body)
        case .and(let operands), .or(let operands), .function(_, let operands):
            for operand in operands { operand.forEachValue(body) }
        case .not(let operand), .isNull(let operand), .collated(let operand, _), .related(_, let operand):
            operand.forEachValue(body)
        case .in(let operand, let list):
            operand.forEachValue(body)
            for element in list { element.forEachValue(body) }
        case .between(let first, let second, let third), .case(let first, let second, let third):
            first.forEachValue(body)
            second.forEachValue(body)
            third.forEachValue(body)
        case .exists(let query), .relatedCount(let query):
            query.condition?.forEachValue(body)
        case .relatedAggregate(_, let query, let expression):
            expression.forEachValue(body)
            query.condition?.forEachValue(body)
        }
    }
}
