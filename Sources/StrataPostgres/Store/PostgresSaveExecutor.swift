import Strata

/// Runs a save's statements on PostgreSQL inside the save's transaction, a batch of them pipelined
/// (``PostgresConnection/pipeline(_:statement:result:)``: 1,000 statements per sync), each prepared once on the
/// connection; rows a conflict or an upsert reads are locked `FOR UPDATE`.
final class PostgresSaveExecutor: SaveExecutor {
    let connection: PostgresConnection
    let select: PostgresSelect
    var dialect: PostgreSQLDialect { select.writer.dialect }
    var rowLock: String { " FOR UPDATE" }
    var insertedKeys: InsertedKeys { .returned }

    init(connection: PostgresConnection, select: PostgresSelect) {
        self.connection = connection
        self.select = select
    }

    func run(_ count: Int, statement: (Int) -> SaveStatement, result: (Int, PostgresResult) throws -> Void) throws {
        // The entity of each statement sent, for the constraint a unique violation names.
        var entities: [Schema.Entity] = []
        do {
            try connection.pipeline(
                count,
                statement: { index in
                    let next = statement(index)
                    if entities.last !== next.sql.entity { entities.append(next.sql.entity) }
                    return .init(next.sql.text, next.bindings.array)
                }, result: result)
        } catch let error as PostgresError where error.isUniqueViolation {
            throw uniqueViolation(error, among: entities)
        }
    }

    func deleteRows(_ rows: BatchDeleteRows, returning columns: [String]) throws -> SaveDeletedRows {
        // Text leaves are answered for the rows as this transaction reads them (a row changed meanwhile fails it with 40001).
        let root = rows.root
        let select = try select.answering(root.entity, condition: root.condition, on: connection)
        let (sql, bindings) =
            ("DELETE" + (try select.from(rows)) + " RETURNING "
            + .joined(([StoreLayout.primaryKeyColumn] + columns).map(SQLFragment.identifier), separator: ", "))
            .render(in: dialect)
        let deleted: PostgresResult
        do {
            // Binary: the keys are read without parsing text.
            deleted = try connection.preparedQuery(sql, bindings, binaryResults: true)
        } catch let error as PostgresError where error.isUniqueViolation {
            throw uniqueViolation(error, among: [rows.entity])
        }
        var removed = SaveDeletedRows(keys: (0..<deleted.count).map { deleted.int64(row: $0, column: 0) })
        if !columns.isEmpty {
            removed.values = (0..<deleted.count).map { row in
                columns.indices.map { deleted.storedValue(row: row, column: Int32($0 + 1)) }
            }
        }
        return removed
    }

    /// The error a unique violation of one of `entities`' constraints is reported as: the entity and the
    /// properties of the constraint PostgreSQL names (the first entity and no properties when it names none of theirs).
    private func uniqueViolation(_ error: PostgresError, among entities: [Schema.Entity]) -> StrataError {
        for entity in entities {
            if let name = error.constraint,
                let position = entity.uniquenessConstraints.indices.first(where: {
                    PostgresTableDefinition.uniqueConstraintName(entity.name, $0) == name
                })
            {
                return StrataError.uniqueConstraintViolation(
                    entity: entity.name, properties: entity.uniquenessConstraints[position])
            }
        }
        return StrataError.uniqueConstraintViolation(entity: entities.first?.name ?? "", properties: [])
    }
}

extension PostgresResult: SaveStatementResult {
    package var insertedKey: Int64? { count > 0 ? int64(row: 0, column: 0) : nil }
}
