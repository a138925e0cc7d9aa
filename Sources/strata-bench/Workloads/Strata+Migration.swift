import Foundation
import Strata

extension StrataWorkloads {
    /// Opens a `largeRows`-row store with `Item` gaining `var rating: Int = 0`: an inferred migration that adds the
    /// column. Timed: the container's open (integrity check included) and the migration; no backup is written.
    func addColumn() throws -> Sample {
        try migrating(to: MigratedItem.Item.self)
    }

    /// Opens a `largeRows`-row store with `Item` losing `flagged`: an inferred migration that rebuilds the table.
    func rebuildTable() throws -> Sample {
        try migrating(to: TrimmedItem.Item.self)
    }

    private func migrating(to model: any PersistentModel.Type) throws -> Sample {
        let path = TemporaryStore.makePath("strata-migrate")
        defer { TemporaryStore.remove(path) }
        _ = try makeContainer(path: path, rows: options.largeRows)
        var configuration = ModelConfiguration(url: URL(fileURLWithPath: path))
        configuration.backsUpStoreBeforeMigration = false
        return Sample(
            milliseconds: try Harness.time {
                _ = try ModelContainer(for: model, configurations: configuration)
            })
    }
}
