import Strata

/// The SQL of a fetch on PostgreSQL: the shared ``SelectStatement`` through ``PostgresQueryWriter``.
typealias PostgresSelect = SelectStatement<PostgresQueryWriter>

extension PostgresQueryWriter: SelectWriter {
    func condition(_ expression: QueryExpression) throws -> SQLFragment {
        try condition(expression, in: .root)
    }

    func value(_ expression: QueryExpression) throws -> SQLFragment {
        try value(expression, in: .root)
    }

    func aggregate(_ aggregate: QueryAggregate, of operand: QueryExpression) throws -> SQLFragment {
        aggregateCall(aggregate, of: try value(operand, in: .root))
    }

    /// A sort key with PostgreSQL's `NULLS FIRST`/`NULLS LAST` where the key may be NULL, so `nil` sorts first
    /// ascending, as on SQLite.
    func orderingKey(_ ordering: QueryOrdering, of entity: Schema.Entity) throws -> SQLFragment {
        try orderingKey(ordering, nullable: Self.isNullable(ordering.expression, in: entity))
    }

    /// Every sort ends on the primary key, so rows that tie come back in the order SQLite returns them
    /// (PostgreSQL's heap order changes as rows are updated).
    var breaksTiesByPrimaryKey: Bool { true }

    /// ` LIMIT n` and ` OFFSET m`, each only when given.
    func appendLimit(_ limit: Int?, offset: Int?, to sql: inout SQLFragment) {
        if let limit {
            sql.append(sql: " LIMIT ")
            sql.append(binding: .integer(Int64(limit)))
        }
        if let offset {
            sql.append(sql: " OFFSET ")
            sql.append(binding: .integer(Int64(offset)))
        }
    }

    /// Whether a sort key may be NULL: anything but the primary key or a column of a non-optional property.
    static func isNullable(_ expression: QueryExpression, in entity: Schema.Entity) -> Bool {
        guard case .column(let name) = expression else { return true }
        if name == StoreLayout.primaryKeyColumn { return false }
        return entity.persistentProperties.first { $0.name == name }?.isOptional ?? true
    }
}
