import Strata

extension PostgresStore {
    /// Whether another instance migrated the tables of this store's entities since it opened: asked when a statement
    /// names a column or table that no longer exists. Returns `StrataError.storeMigrated` naming the version the
    /// store now holds, or `nil` when this store's tables are as its models need them (the failure is another's).
    func migratedElsewhere() -> StrataError? {
        let stored = try? pool.withConnection { connection -> StoredSchema? in
            let rows = try connection.query(StoredSchema.selectRecorded)
            return rows.count > 0 ? rows.text(row: 0, column: 0).flatMap(StoredSchema.decode) : nil
        }
        guard let stored = stored ?? nil else { return nil }
        return stored.holdsTables(of: schema, layout: PostgresTableLayout())
            ? nil
            : StrataError.storeMigrated(
                path: configuration.location, version: stored.version?.description ?? "a newer, unversioned schema")
    }
}
