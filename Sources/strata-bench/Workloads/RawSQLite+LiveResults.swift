import CSQLite
import Foundation

extension RawWorkloads {
    /// Workload 8's floor: the same one-row change written with one `UPDATE` in a transaction, then — when the
    /// change is to a row an observer shows — that one observer's query run again by hand and read into
    /// `ItemRow`s. Raw SQLite is given perfect knowledge of which query is affected, so it never re-runs the
    /// others; for a change no query shows, the floor is the write alone.
    func liveResults(affecting: Bool) throws -> Sample {
        let query = LiveQuery(options: options)
        return try withStore(rows: query.rows) { database in
            let lookup = try database.prepare("SELECT \"Z_PK\", \"score\" FROM \"Item\" WHERE \"id\" = ?")
            let update = try database.prepare("UPDATE \"Item\" SET \"weight\" = \"weight\" + 1 WHERE \"Z_PK\" = ?")
            let slice = try database.prepare(
                """
                SELECT \(RawDatabase.columnList) FROM "Item" \
                WHERE "score" >= ? AND "score" < ? AND "isActive" = 1 ORDER BY "score"
                """)
            var latencies: [Double] = []
            for number in 0..<query.changes {
                lookup.bind(query.target(number, affecting: affecting), at: 1)
                guard try lookup.step() else { throw RawSQLiteError(description: "live results: no row") }
                let key = Int(sqlite3_column_int64(lookup.pointer, 0))
                let bounds = query.slice(query.observer(showing: sqlite3_column_double(lookup.pointer, 1)))
                sqlite3_reset(lookup.pointer)
                latencies.append(
                    try Harness.time {
                        update.bind(key, at: 1)
                        try database.transaction { _ = try update.step() }
                        sqlite3_reset(update.pointer)
                        guard affecting else { return }
                        slice.bind(bounds.low, at: 1)
                        slice.bind(bounds.high, at: 2)
                        var rows: [ItemRow] = []
                        while try slice.step() { rows.append(slice.row()) }
                        sqlite3_reset(slice.pointer)
                        consume(rows)
                    })
            }
            return Sample(
                milliseconds: Harness.median(latencies), p99Milliseconds: LiveQuery.percentile(0.99, of: latencies))
        }
    }
}
