import Foundation
import Strata
import StrataState
import StrataTestSupport

/// The stores the ModelState suites run against (StrataTestSupport's: `STRATA_POSTGRES_URL`, or a throwaway
/// PostgreSQL cluster of the test process's own).
typealias StoreKind = StrataTestSupport.StoreKind

/// One store of ``TodoItem``s that containers can open again and again: an SQLite file (removed when released), or
/// a PostgreSQL schema of its own (dropped when the process exits).
final class TodoStore {
    let kind: StoreKind
    private let file = TemporaryStoreFile()
    private let databaseSchema = "strata_state_test_" + UUID().uuidString.prefix(12).lowercased()

    init(_ kind: StoreKind) {
        self.kind = kind
        if kind == .postgres { PostgresTestServer.dropAtExit(databaseSchema) }
    }

    deinit { file.remove() }

    /// The SQLite file of the store.
    var fileURL: URL { file.url }

    /// A container over the store.
    func container(allowsSave: Bool = true) throws -> ModelContainer {
        let configuration = try kind.configuration(
            fileURL: file.url, databaseSchema: databaseSchema, allowsSave: allowsSave)
        return try ModelContainer(for: Schema([TodoItem.self]), migrationPlan: nil, configurations: [configuration])
    }
}

extension Application {
    /// Makes ``modelContainer`` a store of `kind` of its own while the returned override lasts.
    func useTodoStore(_ kind: StoreKind) throws -> DependencyOverride {
        switch kind {
        case .sqlite:
            return override(
                \.modelContainer,
                with: try ModelContainer(
                    for: TodoItem.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        case .postgres:
            return override(\.modelContainer, with: try TodoStore(kind).container())
        }
    }
}
