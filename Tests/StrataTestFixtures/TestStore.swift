import Foundation
import Strata
import StrataPostgres
import StrataTestSupport

/// One store of a kind that containers can open again and again: an SQLite file (removed when released), or a
/// PostgreSQL schema of its own in the test server (dropped when the process exits, since containers may outlive
/// this object).
final class TestStore {
    let kind: StoreKind
    let file = TemporaryStore()
    /// The SQLite file of this store (for configurations the tests build themselves).
    var fileURL: URL { file.url }
    /// The PostgreSQL schema (namespace) holding this store's tables.
    let databaseSchema = "strata_test_" + UUID().uuidString.prefix(12).lowercased()

    init(_ kind: StoreKind) {
        self.kind = kind
        if kind == .postgres { PostgresTestServer.dropAtExit(databaseSchema) }
    }

    /// A container over the store for `types`.
    func container(_ types: any PersistentModel.Type..., allowsSave: Bool = true) throws -> ModelContainer {
        try container(Schema(types), allowsSave: allowsSave)
    }

    /// A container over the store for `schema`.
    func container(_ schema: Schema, allowsSave: Bool = true) throws -> ModelContainer {
        switch kind {
        case .sqlite:
            return try ModelContainer(
                for: schema, configurations: ModelConfiguration(url: file.url, allowsSave: allowsSave))
        case .postgres:
            let configuration = try StoreKind.postgresConfiguration(
                databaseSchema: databaseSchema, allowsSave: allowsSave)
            return try ModelContainer(for: schema, migrationPlan: nil, configurations: [configuration])
        }
    }
}

/// A fresh container of `kind` for `types`: in memory for SQLite, a new schema for PostgreSQL.
func freshContainer(_ kind: StoreKind, _ types: any PersistentModel.Type...) throws -> ModelContainer {
    switch kind {
    case .sqlite: try ModelContainer(for: Schema(types), configurations: ModelConfiguration(isStoredInMemoryOnly: true))
    case .postgres: try TestStore(.postgres).container(Schema(types))
    }
}
