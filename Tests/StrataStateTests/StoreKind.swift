import Foundation
import Strata
import StrataPostgres
import StrataState
import Testing

/// The stores the ModelState suites run against: `@Test(arguments: StoreKind.all)`. PostgreSQL runs when
/// `STRATA_POSTGRES_URL` names a server (`.ci/run` starts one; `Scripts/postgres-dev.sh start` does for a developer)
/// and is left out with a notice otherwise; with `STRATA_REQUIRE_POSTGRES=1` it stays in, so its tests fail rather
/// than skip.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    /// The server's URL, from `STRATA_POSTGRES_URL`.
    static let postgresURL: URL? = {
        guard let text = ProcessInfo.processInfo.environment["STRATA_POSTGRES_URL"], let url = URL(string: text), !text.isEmpty else {
            print("◇ StrataState's PostgreSQL tests skipped: no STRATA_POSTGRES_URL (Scripts/postgres-dev.sh start gives one)")
            return nil
        }
        return url
    }()

    /// The stores available here.
    static var all: [StoreKind] {
        let required = ProcessInfo.processInfo.environment["STRATA_REQUIRE_POSTGRES"] == "1"
        return postgresURL != nil || required ? allCases : [.sqlite]
    }

    var testDescription: String { self == .sqlite ? "SQLite" : "PostgreSQL" }
}

/// One store of ``TodoItem``s that containers can open again and again: an SQLite file (removed when released), or
/// a PostgreSQL schema of its own (dropped when the process exits).
final class TodoStore {
    let kind: StoreKind
    private let file = TemporaryStoreFile()
    private let databaseSchema = "strata_state_test_" + UUID().uuidString.prefix(12).lowercased()

    init(_ kind: StoreKind) {
        self.kind = kind
        if kind == .postgres { Self.dropAtExit(databaseSchema) }
    }

    deinit { file.remove() }

    /// A container over the store.
    func container(allowsSave: Bool = true) throws -> ModelContainer {
        switch kind {
        case .sqlite:
            return try ModelContainer(for: TodoItem.self, configurations: ModelConfiguration(url: file.url, allowsSave: allowsSave))
        case .postgres:
            guard let url = StoreKind.postgresURL else {
                throw StrataError.storeOpenFailed(path: "PostgreSQL", reason: "no STRATA_POSTGRES_URL for the tests")
            }
            let configuration = PostgresConfiguration(url: url, databaseSchema: databaseSchema, allowsSave: allowsSave)
            return try ModelContainer(for: TodoItem.self, configurations: configuration)
        }
    }

    nonisolated(unsafe) private static var schemas: [String] = []
    private static let schemasLock = NSLock()

    private static func dropAtExit(_ name: String) {
        schemasLock.withLock {
            if schemas.isEmpty {
                atexit {
                    guard let url = StoreKind.postgresURL, let connection = try? PostgresConnection(conninfo: url.absoluteString) else { return }
                    for name in TodoStore.schemasLock.withLock({ TodoStore.schemas }) {
                        try? connection.execute("DROP SCHEMA IF EXISTS \"\(name)\" CASCADE")
                    }
                }
            }
            schemas.append(name)
        }
    }
}

extension Application {
    /// Makes ``modelContainer`` a store of `kind` of its own while the returned override lasts.
    func useTodoStore(_ kind: StoreKind) throws -> DependencyOverride {
        switch kind {
        case .sqlite:
            return override(\.modelContainer, with: try ModelContainer(for: TodoItem.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        case .postgres:
            return override(\.modelContainer, with: try TodoStore(kind).container())
        }
    }
}
