extension Schema.Entity {
    /// The condition keeping the rows of this entity and its subentities in its hierarchy's table; `nil` when the
    /// table holds no other rows (a model outside any hierarchy, or a hierarchy's root).
    package var entityFilter: QueryExpression? {
        guard parentEntity != nil else { return nil }
        return Self.entityFilter(selfAndDescendants)
    }

    /// The condition keeping the rows of exactly `entities` (of one hierarchy).
    package static func entityFilter(_ entities: [Schema.Entity]) -> QueryExpression {
        .in(.column(StoreLayout.entityColumn), entities.map { .value(.text($0.name)) })
    }

    /// `condition` restricted to this entity's rows.
    package func restricting(_ condition: QueryExpression?) -> QueryExpression? {
        guard let filter = entityFilter else { return condition }
        guard let condition else { return filter }
        return .and([filter, condition])
    }
}

extension StoreFetch {
    /// Whether the fetch reads each row's entity column (last, after the version or the key): its rows may be of
    /// subentities, whose models are of other classes.
    package var readsEntityColumn: Bool { !entity.childEntities.isEmpty }

    /// The position of the entity column in a row of this fetch.
    package var entityColumnPosition: Int32 { Int32(columns.map { $0.count + 2 } ?? 1) }
}
