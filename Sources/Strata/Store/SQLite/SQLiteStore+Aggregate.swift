extension SQLiteStore {
    package func aggregate(_ request: StoreAggregate) throws -> [[StoredValue]] {
        let statement = try SelectStatement.sqlite.aggregate(request)
        return try withConnection { connection in
            try detectingMigration(connection) {
                try translatingErrors("total \(request.entity.name)") { try connection.query(statement) }
            }
        }
    }
}
