import Foundation

extension QueryEvaluator {
    /// The rows reached from this one through `hops`, in the order the models hold them.
    ///
    /// - Throws: `StrataError.unsupportedPredicate` when the evaluator has no model to follow
    ///   relationships from.
    func rows(through hops: [RelationshipHop]) throws -> [QueryEvaluator] {
        var rows = [self]
        for hop in hops {
            rows = try rows.flatMap { row in
                guard let data = row.backingData else {
                    if let related = row.relatedRows { return try related(hop) }
                    throw StrataError.unsupportedPredicate(
                        expression: "\(hop.owner.name).\(hop.relationship.name)",
                        reason: "relationships can only be followed from a model")
                }
                return data.relatedModels(at: hop.relationship.index).map {
                    QueryEvaluator(entity: hop.destination, backingData: $0.persistentBackingData)
                }
            }
        }
        return rows
    }

    /// The rows of a related query: reached through its path, narrowed by its condition.
    ///
    /// - Throws: as ``rows(through:)`` and ``isSatisfied(_:)``.
    func rows(of query: RelatedQuery) throws -> [QueryEvaluator] {
        let rows = try rows(through: query.path.hops)
        guard let condition = query.condition else { return rows }
        return try rows.filter { try $0.isSatisfied(condition) }
    }

    /// A to-one foreign key as the store would hold it: the target's primary key, `NULL` for none. An unsaved
    /// target has no key yet and reads as its temporary identifier's `queryKey`, which no stored row has.
    func foreignKey(of data: ModelBackingData, at index: Int) -> StoredValue {
        guard let target = data.relatedModels(at: index).first else { return .null }
        let targetData = target.persistentBackingData
        if let key = targetData.primaryKey { return .integer(key) }
        return .integer(targetData.identifier(entityName: String(describing: type(of: target))).queryKey)
    }

    /// SQL's aggregates over the non-null values: `NULL` over none; `sum` stays an integer while every
    /// value is one (failing on overflow, as SQLite does); `avg` is a real; an integer attribute's sum is exact and
    /// fails only outside `Int64`. The floating-point sum and average
    /// are exact sums rounded once, as `strata_real_sum` and `strata_real_avg` compute them.
    ///
    /// - Throws: `StrataError.storeFailure` when an integer sum overflows.
    func aggregate(_ aggregate: QueryAggregate, _ values: [StoredValue]) throws -> StoredValue {
        let present = values.filter { $0 != .null }
        guard let first = present.first else { return .null }
        switch aggregate {
        case .integerSum:
            // Exact, so the answer doesn't depend on the rows' order; only a sum outside Int64 fails.
            var sum: Int128 = 0
            for value in present { sum += Int128(SQLiteValueConversion.integer(value)) }
            guard let result = Int64(exactly: sum) else {
                throw StrataError.storeFailure(operation: "evaluate a predicate", reason: "integer overflow in sum")
            }
            return .integer(result)
        case .floatingSum, .floatingAverage:
            var words = [UInt64](repeating: 0, count: FloatingSum.wordCount)
            return words.withUnsafeMutableBufferPointer { words in
                for value in present { FloatingSum.add(SQLiteValueConversion.real(value), to: words) }
                return StoredArithmetic.floatingSum(words, average: aggregate == .floatingAverage)
            }
        case .minimum, .floatingMinimum:
            return present.dropFirst().reduce(first) {
                Self.order($1, $0, collation: .binary) == .orderedAscending ? $1 : $0
            }
        case .maximum, .floatingMaximum:
            return present.dropFirst().reduce(first) {
                Self.order($1, $0, collation: .binary) == .orderedDescending ? $1 : $0
            }
        case .sum, .average:
            let numbers = present.compactMap(SQLiteValueConversion.number)
            var integerSum: Int64? = 0
            var realSum = 0.0
            for number in numbers {
                realSum += number.real ?? 0
                if case .integer(let value) = number, let sum = integerSum {
                    let (result, overflow) = sum.addingReportingOverflow(value)
                    if overflow, aggregate == .sum {
                        throw StrataError.storeFailure(
                            operation: "evaluate a predicate", reason: "integer overflow in sum")
                    }
                    integerSum = overflow ? nil : result
                } else {
                    integerSum = nil
                }
            }
            if aggregate == .average { return .real(realSum / Double(numbers.count)) }
            return integerSum.map { .integer($0) } ?? .real(realSum)
        }
    }
}
