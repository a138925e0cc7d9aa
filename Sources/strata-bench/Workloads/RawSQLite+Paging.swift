import CSQLite
import Foundation

/// The floors of the paging workloads (11) and of the one-row save (15), on the shared large store.
extension RawWorkloads {
    /// Workload 11a/11b's floor: what a random-access collection of the query's results needs for one page —
    /// the count of matching rows, then the page's rows with `LIMIT`/`OFFSET` into structs.
    func page(last: Bool) throws -> Sample {
        let database = try large()
        return try Harness.measure(rows: Query.enumerateBatch) {
            let count = try database.prepare("SELECT COUNT(*) FROM \"Item\" WHERE \"score\" > ?")
            count.bind(Query.scoreThreshold, at: 1)
            _ = try count.step()
            let matching = Int(sqlite3_column_int64(count.pointer, 0))
            let statement = try database.prepare(
                "SELECT \(RawDatabase.columnList) FROM \"Item\" WHERE \"score\" > ? ORDER BY \"score\" LIMIT ? OFFSET ?"
            )
            statement.bind(Query.scoreThreshold, at: 1)
            statement.bind(Query.enumerateBatch, at: 2)
            statement.bind(last ? max(matching - 1, 0) / Query.enumerateBatch * Query.enumerateBatch : 0, at: 3)
            var rows: [ItemRow] = []
            while try statement.step() { rows.append(statement.row()) }
            consume(rows)
        }
    }

    /// Workload 11c/11d's floor: the query's rows in order, one statement, into structs — the first page's only,
    /// or all of them.
    func sortedRows(firstPageOnly: Bool) throws -> Sample {
        let database = try large()
        let limit = firstPageOnly ? Query.enumerateBatch : -1
        return try Harness.timeWithMemory {
            let statement = try database.prepare(
                "SELECT \(RawDatabase.columnList) FROM \"Item\" WHERE \"score\" > ? ORDER BY \"score\" LIMIT ?")
            statement.bind(Query.scoreThreshold, at: 1)
            statement.bind(limit, at: 2)
            var checksum = 0
            while try statement.step() { checksum &+= statement.row().checksum }
            consume(checksum)
        }
    }

    /// Workload 15's floor: one row's `weight` changed in a transaction. Untimed, the row is read first with the
    /// query Strata's side fetches it with (and, `readingAll`, every row with it, as 15a registers them all), so
    /// both time the change and the commit from the same place.
    func saveOneChange(readingAll: Bool) throws -> Sample {
        let database = try large()
        let read = try database.prepare(
            "SELECT \"Z_PK\", \(RawDatabase.columnList) FROM \"Item\" ORDER BY \"id\"" + (readingAll ? "" : " LIMIT 1"))
        var rows: [ItemRow] = []
        while try read.step() { rows.append(read.row(from: 1)) }
        consume(rows)
        let statement = try database.prepare("UPDATE \"Item\" SET \"weight\" = \"weight\" + 1 WHERE \"Z_PK\" = ?")
        statement.bind(1, at: 1)
        return Sample(
            milliseconds: try Harness.time {
                try database.transaction { _ = try statement.step() }
                sqlite3_reset(statement.pointer)
            })
    }
}
