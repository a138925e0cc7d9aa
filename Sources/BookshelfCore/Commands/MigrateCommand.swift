import Foundation
import Strata

/// `bookshelf store migrate [--dry-run]`: migrates the store to bookshelf's models, or (with `--dry-run`) prints
/// what the migration would do — each stage, schema change, data check and SQL statement — without touching it.
enum MigrateCommand {
    /// Runs `store migrate` with `arguments` (after `store migrate`) against the store at `location`.
    ///
    /// - Throws: `CommandError.usage` for unknown arguments, or the store's `StrataError` (a refused migration
    ///   names the entity, the property and what would fix it).
    static func run(_ arguments: [String], location: StoreLocation) throws -> String {
        let parsed = try Arguments(arguments, options: [], flags: ["--dry-run"])
        if location == .memory {
            return "An in-memory store starts with bookshelf's current models; nothing to migrate."
        }
        let schema = Schema(StoreLocation.modelTypes)
        let steps = try ModelContainer.migrationSteps(for: schema, configurations: [location.configuration])
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
