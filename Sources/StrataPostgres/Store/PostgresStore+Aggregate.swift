import Strata

extension PostgresStore {
    package func aggregate(_ request: StoreAggregate) throws -> [[StoredValue]] {
        let result = try withReadConnection("total \(request.entity.name)") { connection in
            try withTextLookups(
                PostgresTextLeaves(condition: request.condition, orderings: [], entity: request.entity), on: connection
            ) { select in
                let (sql, bindings) = try select.aggregate(request).render(in: writer.dialect)
                return try connection.preparedQuery(sql, bindings)
            }
        }
        return result.storedRows
    }
}
