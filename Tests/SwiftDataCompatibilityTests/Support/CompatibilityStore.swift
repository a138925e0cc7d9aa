import Foundation
import StrataTestSupport
import SwiftData

/// The stores the suites run against (StrataTestSupport's): `@Test(arguments: StoreKind.all)`.
typealias StoreKind = StrataTestSupport.StoreKind

/// One store that containers open again and again, as an app and its widget, or two app processes, open one store:
/// an SQLite file (removed when released), or a PostgreSQL schema of its own in the test server.
final class CompatibilityStore {
    let kind: StoreKind
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("compatibility-\(UUID().uuidString).store")
    private lazy var databaseSchema = StoreKind.newDatabaseSchema(prefix: "strata_compat_")

    init(_ kind: StoreKind) {
        self.kind = kind
    }

    deinit {
        let directory = url.deletingLastPathComponent().path
        for file in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        where file.hasPrefix(url.lastPathComponent) {
            try? FileManager.default.removeItem(atPath: directory + "/" + file)
        }
    }

    /// The configuration of the store.
    func configuration() throws -> any DataStoreConfiguration & Sendable {
        try kind.configuration(fileURL: url, databaseSchema: kind == .postgres ? databaseSchema : "")
    }

    /// A container over the store for `types`.
    func container(_ types: any PersistentModel.Type...) throws -> ModelContainer {
        try container(Schema(types))
    }

    /// A container over the store for `schema`, migrating through `migrationPlan`.
    func container(_ schema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)? = nil) throws -> ModelContainer {
        try ModelContainer(for: schema, migrationPlan: migrationPlan, configurations: [try configuration()])
    }

    /// What the store holds: the file's bytes, or the PostgreSQL schema's tables and rows.
    func snapshot() throws -> String {
        switch kind {
        case .sqlite: (FileManager.default.contents(atPath: url.path) ?? Data()).base64EncodedString()
        case .postgres: try PostgresTestServer.snapshot(databaseSchema: databaseSchema)
        }
    }
}

/// A fresh, empty container of `kind` for `types`.
func freshContainer(_ kind: StoreKind, _ types: any PersistentModel.Type...) throws -> ModelContainer {
    try kind.freshContainer(Schema(types))
}
