import Foundation

extension FormatAggregateDescriptor {
    /// Where one entry of `propertiesToFetch` is read from: a group key or an aggregate, by position.
    package enum Slot {
        case key(Int)
        case value(Int)
    }

    /// The descriptor as the engine's ``AggregateDescriptor`` over `entity`, its keys and values read as
    /// ``AggregateValue``s, with where each entry of `propertiesToFetch` is found among them.
    ///
    /// - Throws: `StrataError.invalidAggregate` naming the model and property for an entry, group key, having
    ///   comparison or sort key that can't be read; `StrataError.unsupportedSortDescriptor` for a selector other
    ///   than `compare:`; `PredicateFormatError` for a having predicate that doesn't parse.
    package func aggregateDescriptor(
        entity: Schema.Entity
    ) throws -> (descriptor: AggregateDescriptor<T, [AggregateValue], [AggregateValue]>, slots: [Slot]) {
        var terms: [AggregateTerm] = []
        var readers: [(AggregateReading) throws -> AggregateValue] = []
        var slots: [Slot] = []
        for entry in propertiesToFetch {
            if let index = propertiesToGroupBy.firstIndex(of: entry) {
                slots.append(.key(index))
                continue
            }
            guard let (term, reader) = try Self.term(entry, entity: entity) else {
                _ = try AggregatePlan.resolve(named: entry, in: entity)
                throw StrataError.invalidAggregate(
                    entity: entity.name, property: entry,
                    reason: "a property fetched with aggregates must be in propertiesToGroupBy, as Core Data requires")
            }
            slots.append(.value(terms.count))
            terms.append(term)
            readers.append(reader)
        }
        let keyCount = propertiesToGroupBy.count
        var descriptor = AggregateDescriptor<T, [AggregateValue], [AggregateValue]>(
            formatPredicate: predicate, groupKeys: propertiesToGroupBy.map { .name($0) }, terms: terms,
            readKey: { reader in try (0..<keyCount).map { _ in AggregateValue(try reader.nextKeyValue()) } },
            readValue: { reader in try readers.map { read in try reader.nextValue(read) } })
        descriptor.fetchLimit = fetchLimit
        descriptor.fetchOffset = fetchOffset
        descriptor.sortBy = try sortDescriptors.map { try sort($0, entity: entity) }
        if let havingPredicate {
            descriptor.havingPredicate = AggregatePredicate(
                try Self.havingNode(try havingPredicate.resolvedExpression(), entity: entity))
        }
        return (descriptor, slots)
    }

    private func sort(_ sort: FormatSortDescriptor, entity: Schema.Entity) throws -> AggregateSortDescriptor<T> {
        if let selector = sort.selector, selector != "compare:" {
            throw StrataError.unsupportedSortDescriptor(
                description: sort.description, reason: "an aggregate fetch sorts with compare: only")
        }
        let order: SortOrder = sort.ascending ? .forward : .reverse
        if let keyPath = sort.keyPath {
            return AggregateSortDescriptor(target: .groupKey(.keyPath(keyPath)), order: order)
        }
        let key = sort.key ?? ""
        if propertiesToGroupBy.contains(key) {
            return AggregateSortDescriptor(target: .groupKey(.name(key)), order: order)
        }
        if let (term, _) = try Self.term(key, entity: entity) {
            return AggregateSortDescriptor(target: .aggregate(term), order: order)
        }
        throw StrataError.invalidAggregate(
            entity: entity.name, property: key,
            reason: "a sort key must be in propertiesToGroupBy or be a result expression such as @sum.\(key)")
    }

    /// The aggregate a result expression (`@sum.cents`, `sum:(cents)`, `@count`) names, with how its value is read;
    /// `nil` when `text` isn't a result expression.
    /// - Throws: `StrataError.invalidAggregate` for an unknown function, or a property it can't total.
    static func term(
        _ text: String, entity: Schema.Entity
    ) throws -> (AggregateTerm, (AggregateReading) throws -> AggregateValue)? {
        guard let (function, path) = try parse(text, entity: entity) else { return nil }
        return try term(function: function, path: path, entity: entity)
    }

    /// The function (`count`, `sum`, `avg`, `min`, `max`) and the property path of a result expression.
    private static func parse(_ text: String, entity: Schema.Entity) throws -> (String, String?)? {
        if text.hasPrefix("@") {
            let body = text.dropFirst()
            let dot = body.firstIndex(of: ".")
            let name = String(body[..<(dot ?? body.endIndex)]).lowercased()
            let path = dot.map { String(body[body.index(after: $0)...]) }
            return (name, path)
        }
        guard text.hasSuffix(")"), let open = text.range(of: ":(") else { return nil }
        let function = String(text[..<open.lowerBound])
        let path = String(text[open.upperBound..<text.index(before: text.endIndex)])
        let names = ["count": "count", "sum": "sum", "average": "avg", "min": "min", "max": "max"]
        guard let name = names[function] else {
            throw StrataError.invalidAggregate(
                entity: entity.name, property: path,
                reason: "'\(function):' is not an aggregate function; use count:, sum:, average:, min: or max:")
        }
        return (name, path)
    }

    private static func term(
        function: String, path: String?, entity: Schema.Entity
    ) throws -> (AggregateTerm, (AggregateReading) throws -> AggregateValue) {
        guard let path, !path.isEmpty else {
            guard function == "count" else {
                throw StrataError.invalidAggregate(
                    entity: entity.name, property: "@\(function)",
                    reason: "@\(function) needs a property: @\(function).amount")
            }
            return (AggregateTerm(function: .count, operand: nil), { .int($0.count()) })
        }
        let operand = AggregateOperand.name(path)
        let property = try AggregatePlan.resolve(named: path, in: entity).1
        let type = property.valueType
        let isFloating = type is any BinaryFloatingPoint.Type || type is any OptionalFloatingPoint.Type
        let isInteger =
            (type is any BinaryInteger.Type || type is any OptionalInteger.Type) && type != Bool.self
        func numeric(_ name: String) throws {
            guard isFloating || isInteger else {
                throw StrataError.invalidAggregate(
                    entity: entity.name, property: path,
                    reason: "@\(name) totals numbers; \(entity.name).\(path) is \(type)")
            }
        }
        switch function {
        case "count":
            return (AggregateTerm(function: .countValues, operand: operand), { .int($0.count()) })
        case "sum":
            try numeric("sum")
            if isInteger {
                return (AggregateTerm(function: .integerSum, operand: operand), { .int(try $0.integerSum(Int.self)) })
            }
            return (
                AggregateTerm(function: .floatingSum, operand: operand), { .double($0.floating(Double.self) ?? 0) }
            )
        case "avg":
            try numeric("avg")
            if isInteger {
                return (
                    AggregateTerm(function: .integerAverage, operand: operand),
                    { $0.integerAverage().map { .double($0) } ?? .null }
                )
            }
            return (
                AggregateTerm(function: .floatingAverage, operand: operand),
                { $0.floating(Double.self).map { .double($0) } ?? .null }
            )
        case "min", "max":
            let function: AggregateFunction =
                function == "min"
                ? (isFloating ? .floatingMinimum : .minimum) : (isFloating ? .floatingMaximum : .maximum)
            return (AggregateTerm(function: function, operand: operand), { AggregateValue(try $0.anyValue()) })
        default:
            throw StrataError.invalidAggregate(
                entity: entity.name, property: path,
                reason: "'@\(function)' is not an aggregate; use @count, @sum, @avg, @min or @max")
        }
    }
}

/// An optional floating-point type, for telling an optional attribute's kind from its value type.
package protocol OptionalFloatingPoint {}
extension Optional: OptionalFloatingPoint where Wrapped: BinaryFloatingPoint {}

/// An optional integer type, for telling an optional attribute's kind from its value type.
package protocol OptionalInteger {}
extension Optional: OptionalInteger where Wrapped: BinaryInteger {}
