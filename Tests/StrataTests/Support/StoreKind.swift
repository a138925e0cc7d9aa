import Foundation
import Strata
import StrataPostgres
import Testing

/// The stores the behaviour suites run against: `@Test(arguments: StoreKind.all)`. PostgreSQL is left out, with a
/// notice, only where no server can be had (see ``PostgresTestServer``); with `STRATA_REQUIRE_POSTGRES=1` (as
/// `.ci/run` sets) it stays in, so its tests fail rather than skip.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    /// The stores available here.
    static var all: [StoreKind] {
        let required = ProcessInfo.processInfo.environment["STRATA_REQUIRE_POSTGRES"] == "1"
        return PostgresTestServer.url != nil || required ? allCases : [.sqlite]
    }

    /// The stores for tests of non-ASCII string semantics (Character counts, `[c]` and `localizedStandard`
    /// comparisons): both, since PostgreSQL answers them as SQLite does (`PostgresStringSemanticsTests`).
    static var sqliteOnlyText: [StoreKind] { all }

    var testDescription: String { rawValue == "sqlite" ? "SQLite" : "PostgreSQL" }
}

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
            return try ModelContainer(for: schema, configurations: ModelConfiguration(url: file.url, allowsSave: allowsSave))
        case .postgres:
            guard let url = PostgresTestServer.url else {
                throw StrataError.storeOpenFailed(path: "PostgreSQL", reason: "no PostgreSQL server for the tests")
            }
            let configuration = PostgresConfiguration(url: url, databaseSchema: databaseSchema, allowsSave: allowsSave)
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
