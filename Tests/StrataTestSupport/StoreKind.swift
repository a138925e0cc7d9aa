import Foundation
import Strata
import StrataPostgres
import Testing

/// The stores the behaviour suites run against: `@Test(arguments: StoreKind.all)`. PostgreSQL is left out, with a
/// notice, only where no server can be had (see ``PostgresTestServer``); with `STRATA_REQUIRE_POSTGRES=1` (as
/// `.ci/run` sets) it stays in, so its tests fail rather than skip.
package enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    /// The stores available here.
    package static var all: [StoreKind] {
        PostgresTestServer.url != nil || PostgresTestServer.isRequired ? allCases : [.sqlite]
    }

    package var testDescription: String { rawValue == "sqlite" ? "SQLite" : "PostgreSQL" }

    /// The configuration of a store of this kind: the SQLite file at `fileURL`, or the PostgreSQL schema
    /// `databaseSchema` in the test server. Throws, naming what is missing, when there is no server.
    package func configuration(
        fileURL: URL, databaseSchema: String, allowsSave: Bool = true
    ) throws -> any DataStoreConfiguration & Sendable {
        switch self {
        case .sqlite: ModelConfiguration(url: fileURL, allowsSave: allowsSave)
        case .postgres: try Self.postgresConfiguration(databaseSchema: databaseSchema, allowsSave: allowsSave)
        }
    }

    /// The configuration of the PostgreSQL schema `databaseSchema` in the test server.
    /// Throws, naming what is missing, when there is no server.
    package static func postgresConfiguration(
        databaseSchema: String, allowsSave: Bool = true
    ) throws -> PostgresConfiguration {
        PostgresConfiguration(
            url: try PostgresTestServer.requiredURL(), databaseSchema: databaseSchema, allowsSave: allowsSave)
    }
}

extension StoreKind {
    /// A new PostgreSQL schema name with `prefix`, dropped when the process exits.
    package static func newDatabaseSchema(prefix: String = "strata_test_") -> String {
        let name = prefix + UUID().uuidString.prefix(12).lowercased()
        PostgresTestServer.dropAtExit(name)
        return name
    }

    /// A fresh, empty store of this kind for `schema`: in memory for SQLite, a new PostgreSQL schema of its own.
    package func freshContainer(_ schema: Schema) throws -> ModelContainer {
        switch self {
        case .sqlite:
            return try ModelContainer(for: schema, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        case .postgres:
            let configuration = try Self.postgresConfiguration(databaseSchema: Self.newDatabaseSchema())
            return try ModelContainer(for: schema, migrationPlan: nil, configurations: [configuration])
        }
    }
}
