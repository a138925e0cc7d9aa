import Foundation
import Strata
import StrataPostgres

/// `create-worker`: for each store named on its input (a file path, or a PostgreSQL schema of `--store`), opens a
/// container on it, saves one row and closes it, answering `ok <store identifier>` or `error <description>`.
struct CreateWorker {
    let worker: Int
    let postgresURL: URL?

    func run() {
        while let store = readLine() {
            let outcome: String
            do {
                let container = try Self.container(store: store, postgresURL: postgresURL)
                let context = ModelContext(container)
                context.insert(Counter(name: "worker \(worker)"))
                try context.save()
                outcome = "ok \(container.store.identifier)"
            } catch {
                outcome = "error \(error)".replacingOccurrences(of: "\n", with: " ")
            }
            report(outcome)
        }
    }

    /// A container of `Counter` on the file `store`, or on the PostgreSQL schema `store` of `postgresURL`.
    static func container(store: String, postgresURL: URL?) throws -> ModelContainer {
        if let postgresURL {
            return try ModelContainer(
                for: Schema([Counter.self]), migrationPlan: nil,
                configurations: [PostgresConfiguration(url: postgresURL, databaseSchema: store)])
        }
        return try ModelContainer(
            for: Counter.self, configurations: ModelConfiguration(url: URL(fileURLWithPath: store)))
    }
}
