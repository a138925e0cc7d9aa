import Foundation
import Strata

/// `bookshelf store migrate [--dry-run]`: migrates the store to bookshelf's models, or (with `--dry-run`) prints
/// what the migration would do — each stage, schema change, data check and SQL statement — without touching it.
/// A PostgreSQL store migrates when it opens, so there `store migrate` opens it and `--dry-run` is refused.
enum MigrateCommand {
    /// Runs `store migrate` with `arguments` (after `store migrate`) against the store at `location`.
    ///
    /// - Throws: `CommandError.usage` for unknown arguments, or the store's `StrataError` (a refused migration
    ///   names the entity, the property and what would fix it).
    static func run(_ arguments: [String], location: StoreLocation) throws -> String {
        let parsed = try Arguments(arguments, options: [], flags: ["--dry-run"])
        guard let configuration = location.configuration as? ModelConfiguration else {
            // A PostgreSQL store migrates when it opens, in one transaction under an advisory lock.
            if parsed.has("--dry-run") {
                throw CommandError.usage("store migrate --dry-run reads SQLite stores only; a PostgreSQL store migrates when it opens")
            }
            _ = try location.openContainer()
            return "The PostgreSQL store holds bookshelf's current models."
        }
        let schema = Schema(StoreLocation.modelTypes)
        let steps = try ModelContainer.migrationSteps(for: schema, configurations: configuration)
        if steps.isEmpty {
            return "The store holds bookshelf's current models; nothing to migrate."
        }
        let plan = steps.map(\.description).joined(separator: "\n")
        if parsed.has("--dry-run") {
            return "Dry run: the store was not changed.\n" + plan
        }
        _ = try location.openContainer()
        return "Migrated the store:\n" + plan
    }
}
