import Strata

/// The links of every join-table relationship as this device and the hub last agreed on them — as sent, or as
/// fetched — kept in a table of the local store, `strata_sync_links`, by local keys in the join table's own column
/// order (so both sides of a many-to-many share one base). What a device sends for a set of links is its
/// difference from this base: the links it added and the links it removed, never the whole set, which would undo
/// what another device added meanwhile.
struct SyncLinkBase {
    let store: any SQLPersistentStore

    /// The table in the local store.
    static let table = "strata_sync_links"

    /// Creates the table in `store` when it isn't there yet.
    init(store: any SQLPersistentStore) throws {
        self.store = store
        try store.execute(
            """
            CREATE TABLE IF NOT EXISTS \(identifier: Self.table) (join_table TEXT NOT NULL, \
            first_key BIGINT NOT NULL, second_key BIGINT NOT NULL, PRIMARY KEY (join_table, first_key, second_key))
            """, operation: "create the table of synced links")
        try store.execute(
            """
            CREATE INDEX IF NOT EXISTS \(identifier: Self.table + "_second") ON \(identifier: Self.table) (join_table, second_key)
            """, operation: "create the table of synced links")
    }

    /// The keys each of `owners` was linked to through `link` when last synced (owners without links left out).
    func targets(of link: SyncedEntity.Link, owners: [Int64]) throws -> [Int64: Set<Int64>] {
        let (ownerColumn, targetColumn) = columns(of: link)
        var targets: [Int64: Set<Int64>] = [:]
        for chunk in owners.chunked(by: SyncedEntity.inListSize) {
            let keys = SQLFragment.joined(chunk.map { .binding(.integer($0)) }, separator: ", ")
            let query: SQLFragment = """
                SELECT \(identifier: ownerColumn), \(identifier: targetColumn) FROM \(identifier: Self.table) \
                WHERE join_table = \(bind: .text(link.table)) AND \(identifier: ownerColumn) IN (\(keys))
                """
            for (owner, target) in try store.integerPairs(query, operation: "read the synced links of \(link.table)") {
                targets[owner, default: []].insert(target)
            }
        }
        return targets
    }

    /// Makes each owner's base `targets[owner]`, replacing what it was.
    func replace(_ link: SyncedEntity.Link, with targets: [Int64: Set<Int64>]) throws {
        let (ownerColumn, _) = columns(of: link)
        let operation = "record the synced links of \(link.table)"
        for chunk in Array(targets.keys).chunked(by: SyncedEntity.inListSize) {
            let keys = SQLFragment.joined(chunk.map { .binding(.integer($0)) }, separator: ", ")
            try store.execute(
                """
                DELETE FROM \(identifier: Self.table) \
                WHERE join_table = \(bind: .text(link.table)) AND \(identifier: ownerColumn) IN (\(keys))
                """, operation: operation)
        }
        let rows = targets.flatMap { owner, keys in
            keys.map { link.ownerIsFirst ? (owner, $0) : ($0, owner) }
        }
        for chunk in rows.chunked(by: SyncedEntity.inListSize) {
            let values = SQLFragment.joined(
                chunk.map { first, second in
                    "(\(bind: .text(link.table)), \(bind: .integer(first)), \(bind: .integer(second)))"
                }, separator: ", ")
            try store.execute(
                """
                INSERT INTO \(identifier: Self.table) (join_table, first_key, second_key) VALUES \(values) \
                ON CONFLICT DO NOTHING
                """, operation: operation)
        }
    }

    /// The base's column holding the owner's keys, and the one holding the destination's.
    private func columns(of link: SyncedEntity.Link) -> (owner: String, target: String) {
        link.ownerIsFirst ? ("first_key", "second_key") : ("second_key", "first_key")
    }
}
