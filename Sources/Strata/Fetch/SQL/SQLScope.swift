/// The table a `QueryExpression`'s columns refer to while it is spelled as SQL.
///
/// The fetched entity's table is unaliased at the top, so conditions also fit `DELETE FROM "Entity" WHERE …`;
/// each relationship hop inside a correlated subquery gets the next alias (`t1`, `t2`, …, and `j1`, … for join
/// tables), so self-referential relationships and same-named columns stay apart. Sibling subqueries reuse
/// numbers; a nested one continues from its parent's.
package struct SQLScope: Sendable {
    /// The alias of the scope's table; `nil` for the fetched entity's own table.
    package let alias: String?
    /// How many hops deep the scope is.
    package let depth: Int

    /// The fetched entity's table.
    package static let root = SQLScope(alias: nil, depth: 0)

    /// A column of the scope's table: unqualified at the top, `"t1"."name"` inside.
    package func column(_ name: String) -> SQLFragment {
        guard let alias else { return .identifier(name) }
        return .identifier(alias) + SQLFragment(sql: ".") + .identifier(name)
    }

    /// A column of `table` seen from this scope: the root is qualified by its table name (an aliased inner table
    /// hides its own name, so this always means the outer row).
    private func qualified(_ name: String, table: String) -> SQLFragment {
        .identifier(alias ?? table) + SQLFragment(sql: ".") + .identifier(name)
    }

    /// `(SELECT <selection> FROM <hops' tables> WHERE <correlation> [AND <condition>])`, with `selection` and
    /// `condition` (spelled by `spell`, the engine's spelling) in the last hop's scope.
    package func subquery(
        through hops: [RelationshipHop], condition: QueryExpression?,
        spell: (QueryExpression, SQLScope) throws -> SQLFragment, selection: (SQLScope) throws -> SQLFragment
    ) rethrows -> SQLFragment {
        var tables: [(table: SQLFragment, on: SQLFragment)] = []
        var previous = self
        var previousTable = hops.first?.owner.tableName ?? ""
        for hop in hops {
            let depth = previous.depth + 1
            let next = SQLScope(alias: "t\(depth)", depth: depth)
            let destination =
                SQLFragment.identifier(hop.destination.tableName) + SQLFragment(sql: " AS ") + .identifier("t\(depth)")
            let key = StoreLayout.primaryKeyColumn
            switch hop.link {
            case .column(let ownerColumn, let destinationColumn):
                tables.append(
                    (
                        destination,
                        next.column(destinationColumn) + SQLFragment(sql: " = ")
                            + previous.qualified(ownerColumn, table: previousTable)
                    ))
            case .joinTable(let name, let ownerColumn, let targetColumn):
                let join = SQLScope(alias: "j\(depth)", depth: depth)
                tables.append(
                    (
                        .identifier(name) + SQLFragment(sql: " AS ") + .identifier("j\(depth)"),
                        join.column(ownerColumn) + SQLFragment(sql: " = ")
                            + previous.qualified(key, table: previousTable)
                    ))
                tables.append((destination, next.column(key) + SQLFragment(sql: " = ") + join.column(targetColumn)))
            }
            previous = next
            previousTable = hop.destination.tableName
        }
        var sql = SQLFragment(sql: "(SELECT ") + (try selection(previous))
        var conditions: [SQLFragment] = []
        for (offset, table) in tables.enumerated() {
            if offset == 0 {
                sql.append(sql: " FROM ")
                sql.append(table.table)
                conditions.append(table.on)
            } else {
                sql.append(sql: " JOIN ")
                sql.append(table.table + SQLFragment(sql: " ON ") + table.on)
            }
        }
        if let condition { conditions.append(try spell(condition, previous)) }
        if !conditions.isEmpty {
            sql.append(sql: " WHERE ")
            sql.append(.joined(conditions, separator: " AND "))
        }
        return sql + SQLFragment(sql: ")")
    }
}
