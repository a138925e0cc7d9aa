import Foundation

extension FetchPlan {
    /// Whether a model's current (possibly unsaved) values match the descriptor's format predicate, judged
    /// as the store would judge its row; `true` when there is no format predicate.
    ///
    /// - Throws: as `QueryEvaluator.isSatisfied(_:)`.
    package func matchesFormatPredicate(_ model: any PersistentModel) throws -> Bool {
        guard let formatCondition else { return true }
        return try QueryEvaluator(entity: entity, backingData: model.persistentBackingData).isSatisfied(formatCondition)
    }

    /// Sorts models by the descriptor's sort keys in memory, as `ORDER BY` would; ties keep their order.
    ///
    /// - Throws: as `QueryEvaluator.evaluate(_:)`.
    package func sortInMemory<T: PersistentModel>(_ models: inout [T]) throws {
        let keyed = models.enumerated().map { (offset: $0.offset, model: $0.element,
                                               evaluator: QueryEvaluator(entity: entity, backingData: $0.element.persistentBackingData)) }
        var failure: (any Error)?
        let sorted = keyed.sorted { left, right in
            do {
                if try QueryEvaluator.precedes(left.evaluator, right.evaluator, orderings: sortOrderings) { return true }
                if try QueryEvaluator.precedes(right.evaluator, left.evaluator, orderings: sortOrderings) { return false }
            } catch {
                failure = failure ?? error
            }
            return left.offset < right.offset
        }
        if let failure { throw failure }
        models = sorted.map(\.model)
    }
}
