import Foundation

/// An ``AggregateDescriptor`` translated for the store: its predicate as a `QueryExpression`, its key paths as
/// group keys and operands, its aggregates as result columns, and how each aggregate is read back from them.
///
/// An integer sum is asked for as two sums, of each value's high part (`value / 2^32`, truncated) and low part
/// (`value % 2^32`): neither can overflow below 2^31 rows, and `high * 2^32 + low` is the exact sum, so the
/// answer is the same on every engine whatever the row order (SQLite's `sum` fails where a partial sum leaves
/// `Int64`, PostgreSQL's widens), and a sum outside the attribute's type is one typed error, decided here.
package struct AggregatePlan {
    /// How one aggregate of the descriptor is read back.
    private struct Reader {
        enum Kind {
            case count
            case integerSum
            case stored
        }
        let kind: Kind
        /// The position of its first column among the result's aggregate columns.
        let column: Int
        let property: (any AnyPersistentProperty)?
        let name: String
        /// Whether an integer sum is followed by the number of its values (for an average).
        var countsValues = false
    }

    package let entity: Schema.Entity
    package private(set) var request: StoreAggregate
    private var readers: [Reader] = []
    private var keys: [(property: any AnyPersistentProperty, name: String)] = []

    private static let splitFactor = QueryExpression.value(.integer(1 << 32))

    /// Translates a descriptor; a temporary identifier among `permanentIdentifiers`' keys names the row its model
    /// was saved as.
    ///
    /// - Throws: `StrataError.invalidAggregate` naming a key path that isn't a stored attribute of the model or of
    ///   a model it reaches through to-one relationships, an integer sum or average over unsigned storage, or a
    ///   sort key path that isn't a group key; `StrataError.unsupportedPredicate` for the predicate or a negative
    ///   limit or offset.
    package init<T: PersistentModel, Key, Value>(
        _ descriptor: AggregateDescriptor<T, Key, Value>, entity: Schema.Entity,
        permanentIdentifiers: [PersistentIdentifier: PersistentIdentifier] = [:]
    ) throws {
        self.entity = entity
        let conditions = try [
            descriptor.predicate.map {
                try PredicateTranslator.translate($0, entity: entity, permanentIdentifiers: permanentIdentifiers)
            },
            descriptor.formatPredicate.map { try FormatTranslator.translate($0, entity: entity) },
        ].compactMap { $0 }
        let condition = conditions.count > 1 ? .and(conditions) : conditions.first
        for (label, value) in [("fetchLimit", descriptor.fetchLimit), ("fetchOffset", descriptor.fetchOffset)] {
            if let value, value < 0 {
                throw StrataError.unsupportedPredicate(expression: "\(label) \(value)", reason: "it can't be negative")
            }
        }
        request = StoreAggregate(
            entity: entity, condition: condition, keys: [], operands: [], columns: [], ordering: [],
            limit: descriptor.fetchLimit, offset: descriptor.fetchOffset)
        for keyPath in descriptor.groupKeyPaths {
            let (expression, property, name) = try Self.resolve(keyPath, in: entity)
            request.keys.append(expression)
            keys.append((property, name))
        }
        for term in descriptor.terms {
            readers.append(try add(term))
        }
        if let having = descriptor.havingPredicate {
            request.groupCondition = try groupCondition(having.node)
        }
        var ordering: [QueryOrdering] = []
        for sort in descriptor.sortBy {
            let ascending = sort.order == .forward
            switch sort.target {
            case .groupKey(let keyPath):
                guard let index = descriptor.groupKeyPaths.firstIndex(of: keyPath) else {
                    throw StrataError.invalidAggregate(
                        entity: entity.name, property: Self.name(of: keyPath, in: entity),
                        reason: "a sort key path must be one of the descriptor's group key paths")
                }
                ordering.append(keyOrdering(index, ascending: ascending))
            case .aggregate(let term):
                let column = try sortColumn(for: term)
                ordering.append(
                    QueryOrdering(
                        expression: .column(StoreAggregate.resultColumn(column)), ascending: ascending,
                        collation: .binary))
            }
        }
        // Groups that tie on every sort key come in the order of their keys, so results are the same on every run.
        for index in request.keys.indices { ordering.append(keyOrdering(index, ascending: true)) }
        request.ordering = ordering
    }

    /// The groups of the store's result rows (the keys, then the aggregate columns), read as `descriptor`'s types.
    /// - Throws: `StrataError.aggregateOverflow` for an integer sum outside its type; `StrataError.invalidStoredValue`
    ///   for a value that doesn't decode as its type.
    package func results<T: PersistentModel, Key, Value>(
        _ rows: [[StoredValue]], of descriptor: AggregateDescriptor<T, Key, Value>
    ) throws -> [AggregateResult<Key, Value>] {
        try rows.map { row in
            let keyCount = keys.count
            let keyValues = keys.indices.map { (value: row[$0], property: keys[$0].property, name: keys[$0].name) }
            let readings = readers.map { reader in
                AggregateReading(
                    outcome: outcome(of: reader, in: row, after: keyCount), entity: entity,
                    property: reader.property, propertyName: reader.name)
            }
            let rowReader = AggregateRowReader(keys: keyValues, readings: readings, entity: entity)
            return AggregateResult(key: try descriptor.readKey(rowReader), value: try descriptor.readValue(rowReader))
        }
    }

    private func outcome(of reader: Reader, in row: [StoredValue], after keyCount: Int) -> AggregateReading.Outcome {
        let first = keyCount + reader.column
        func integer(_ offset: Int) -> Int64 {
            if case .integer(let value) = row[first + offset] { return value }
            return 0
        }
        switch reader.kind {
        case .count:
            return .count(integer(0))
        case .integerSum:
            let sum = Int128(integer(0)) * (1 << 32) + Int128(integer(1))
            return .integerSum(sum, count: reader.countsValues ? integer(2) : 0)
        case .stored:
            return .stored(row[first])
        }
    }

    /// Adds the columns of one aggregate; returns how to read it.
    private mutating func add(_ term: AggregateTerm) throws -> Reader {
        let column = request.columns.count
        guard let keyPath = term.keyPath else {
            request.columns.append(.count(nil))
            return Reader(kind: .count, column: column, property: nil, name: "")
        }
        let counts = term.function == .countValues || term.function == .countDistinct
        let (expression, property, name) =
            try counts
            ? Self.relatedKey(keyPath, in: entity) ?? Self.resolve(keyPath, in: entity)
            : Self.resolve(keyPath, in: entity)
        let operand = QueryExpression.column(StoreAggregate.operandColumn(operandIndex(of: expression)))
        let kind: Reader.Kind
        switch term.function {
        case .count, .countValues:
            request.columns.append(.count(operand))
            kind = .count
        case .countDistinct:
            request.columns.append(.countDistinct(operand))
            kind = .count
        case .integerSum, .integerAverage:
            try requireStorage(.integer, of: property, name: name, for: "an integer sum or average")
            let (high, low) = Self.split(operand)
            request.columns += [.aggregate(.integerSum, high), .aggregate(.integerSum, low)]
            // Only an average needs the number of values.
            if term.function == .integerAverage { request.columns.append(.count(operand)) }
            kind = .integerSum
        case .floatingSum, .floatingAverage:
            try requireStorage(.real, of: property, name: name, for: "a floating-point sum or average")
            request.columns.append(.aggregate(term.function == .floatingSum ? .floatingSum : .floatingAverage, operand))
            kind = .stored
        case .minimum, .maximum, .floatingMinimum, .floatingMaximum:
            let aggregate: QueryAggregate =
                switch term.function {
                case .minimum: .minimum
                case .maximum: .maximum
                case .floatingMinimum: .floatingMinimum
                default: .floatingMaximum
                }
            request.columns.append(.aggregate(aggregate, operand))
            kind = .stored
        }
        return Reader(
            kind: kind, column: column, property: property, name: name,
            countsValues: term.function == .integerAverage)
    }

    /// A result column to sort by `term`: its own value, except an integer sum or average, whose two halves are
    /// combined into one key.
    mutating func sortColumn(for term: AggregateTerm) throws -> Int {
        guard term.function == .integerSum || term.function == .integerAverage, let keyPath = term.keyPath else {
            return try add(term).column
        }
        let (expression, property, name) = try Self.resolve(keyPath, in: entity)
        try requireStorage(.integer, of: property, name: name, for: "an integer sum or average")
        let operand = QueryExpression.column(StoreAggregate.operandColumn(operandIndex(of: expression)))
        let (high, low) = Self.split(operand)
        request.columns.append(
            term.function == .integerSum
                ? .integerSumKey(high: high, low: low) : .integerAverageKey(high: high, low: low, operand: operand))
        return request.columns.count - 1
    }

    /// `operand / 2^32` and `operand % 2^32`: both truncate toward zero, as Swift's do, on every engine.
    private static func split(_ operand: QueryExpression) -> (high: QueryExpression, low: QueryExpression) {
        (
            .arithmetic(.divide, operand, splitFactor, bounds: nil),
            .arithmetic(.remainder, operand, splitFactor, bounds: nil)
        )
    }

    /// The position of `expression` among the inner select's operands, adding it once.
    private mutating func operandIndex(of expression: QueryExpression) -> Int {
        if let index = request.operands.firstIndex(of: expression) { return index }
        request.operands.append(expression)
        return request.operands.count - 1
    }

    private func keyOrdering(_ index: Int, ascending: Bool) -> QueryOrdering {
        let type = keys[index].property.valueType
        return QueryOrdering(
            expression: .column(StoreAggregate.keyColumn(index)), ascending: ascending,
            collation: type == String.self || type == String?.self ? .swift : .binary)
    }

    private func requireStorage(
        _ storage: StorageClass, of property: any AnyPersistentProperty, name: String, for use: String
    ) throws {
        guard case .attribute(let stored) = property.kind, stored == storage else {
            throw StrataError.invalidAggregate(
                entity: entity.name, property: name,
                reason: "\(use) needs an attribute stored as \(storage); this one is stored as \(property.kind)")
        }
    }

    /// The expression, attribute and name (`author.name`) of a key path: an attribute of `entity` or of a model
    /// reached through to-one relationships.
    /// - Throws: `StrataError.invalidAggregate` for a relationship, a to-many path or a property that isn't stored.
    static func resolve(
        _ operand: AggregateOperand, in entity: Schema.Entity
    ) throws -> (QueryExpression, any AnyPersistentProperty, String) {
        switch operand {
        case .keyPath(let keyPath): try resolve(keyPath, in: entity)
        case .name(let name): try resolve(named: name, in: entity)
        }
    }

    /// The expression, attribute and name of a dotted path of property names (`merchant.city`): an attribute of
    /// `entity` or of a model reached through to-one relationships.
    /// - Throws: `StrataError.invalidAggregate` for an unknown name, a relationship, a to-many path or a property
    ///   that isn't stored.
    static func resolve(
        named name: String, in entity: Schema.Entity
    ) throws -> (QueryExpression, any AnyPersistentProperty, String) {
        var owner = entity
        var hops: [RelationshipHop] = []
        let components = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        for (position, component) in components.enumerated() {
            guard let property = owner.property(named: component) else {
                throw StrataError.invalidAggregate(
                    entity: entity.name, property: name,
                    reason: "\(owner.name) has no stored property named '\(component)'")
            }
            let last = position == components.count - 1
            switch property.kind {
            case .attribute where last:
                let column = QueryExpression.attribute(property)
                return (hops.isEmpty ? column : .related(RelatedPath(hops: hops), column), property, name)
            case .attribute:
                throw StrataError.invalidAggregate(
                    entity: entity.name, property: name,
                    reason: "\(owner.name).\(component) is an attribute; only to-one relationships can be followed")
            case .toMany:
                throw StrataError.invalidAggregate(
                    entity: entity.name, property: name,
                    reason: "\(owner.name).\(component) is a to-many relationship; total the related models with "
                        + "their own descriptor, grouped by their inverse relationship's attributes")
            case .toOne where last:
                throw StrataError.invalidAggregate(
                    entity: entity.name, property: name,
                    reason: "it is a relationship; use one of the related model's attributes (\(name).name)")
            case .toOne:
                guard let hop = RelationshipHop(owner: owner, relationshipIndex: property.index) else {
                    throw StrataError.invalidAggregate(
                        entity: entity.name, property: name,
                        reason: "\(owner.name).\(component) can't be followed in the store")
                }
                hops.append(hop)
                owner = hop.destination
            }
        }
        throw StrataError.invalidAggregate(entity: entity.name, property: name, reason: "it names no property")
    }

    static func resolve(
        _ keyPath: AnyKeyPath, in entity: Schema.Entity
    ) throws -> (QueryExpression, any AnyPersistentProperty, String) {
        if let property = entity.property(for: keyPath) {
            switch property.kind {
            case .attribute:
                return (.attribute(property), property, property.name)
            case .toMany:
                throw StrataError.invalidAggregate(
                    entity: entity.name, property: property.name,
                    reason: "it is a to-many relationship; total the related models with their own descriptor, "
                        + "grouped by their inverse relationship's attributes")
            case .toOne:
                throw StrataError.invalidAggregate(
                    entity: entity.name, property: property.name,
                    reason:
                        "it is a relationship; use one of the related model's attributes (\\.\(property.name)?.name)")
            }
        }
        let name = Self.name(of: keyPath, in: entity)
        guard let (path, property) = try? SortKeyPath.resolve(keyPath, in: entity) else {
            throw StrataError.invalidAggregate(
                entity: entity.name, property: name,
                reason: "it is not a stored attribute of \(entity.name) or of a model reached through to-one "
                    + "relationships (a computed property, or a path through a to-many relationship)")
        }
        let column = QueryExpression.attribute(property)
        return (path.hops.isEmpty ? column : .related(path, column), property, name)
    }

    /// The foreign key of a to-one relationship stored in the entity's row, which counts of related models
    /// (`.count(\.author)`, `.countDistinct(\.author)`) read; `nil` for any other key path.
    private static func relatedKey(
        _ operand: AggregateOperand, in entity: Schema.Entity
    ) -> (QueryExpression, any AnyPersistentProperty, String)? {
        let property =
            switch operand {
            case .keyPath(let keyPath): entity.property(for: keyPath)
            case .name(let name): entity.property(named: name)
            }
        guard let property, case .toOne = property.kind,
            case .foreignKey? = entity.relationshipInfos[property.index]?.storage
        else { return nil }
        return (.column(property.name), property, property.name)
    }

    /// How errors name an operand: a key path as `author?.name`, after the model's name; a name as written.
    static func name(of operand: AggregateOperand, in entity: Schema.Entity) -> String {
        switch operand {
        case .keyPath(let keyPath): name(of: keyPath, in: entity)
        case .name(let name): name
        }
    }

    /// How errors name a key path: `author?.name`, after the model's name.
    static func name(of keyPath: AnyKeyPath, in entity: Schema.Entity) -> String {
        let description = entity.readableDescription(of: keyPath)
        let root = "\\\(entity.name)."
        return description.hasPrefix(root) ? String(description.dropFirst(root.count)) : description
    }
}
