import CSQLite
import Foundation

extension RawWorkloads {
    /// Workloads 18c and 18d's floor: the same one-row change written with one `UPDATE` in a transaction, then the
    /// hand-written `GROUP BY` of the totals run again and read into an array. Raw SQLite knows the change affects
    /// the totals, so it never asks.
    func liveAggregate(slice: Bool) throws -> Sample {
        let query = LiveAggregateQuery(options: options, slice: slice)
        return try withStore(rows: query.rows) { database in
            let filter = query.scoreBelow.map { "WHERE \"score\" < \($0) " } ?? ""
            let candidates = try database.prepare("SELECT \"Z_PK\" FROM \"Item\" \(filter)ORDER BY \"id\"")
            var keys: [Int] = []
            while try candidates.step() { keys.append(Int(sqlite3_column_int64(candidates.pointer, 0))) }
            let update = try database.prepare("UPDATE \"Item\" SET \"count\" = \"count\" + 1 WHERE \"Z_PK\" = ?")
            let totals = try database.prepare(
                "SELECT \"category\", count(*), sum(\"count\"), max(\"weight\") FROM \"Item\" \(filter)"
                    + "GROUP BY \"category\" ORDER BY \"category\"")
            var latencies: [Double] = []
            for number in 0..<query.changes {
                let key = keys[query.target(number, among: keys.count)]
                latencies.append(
                    try Harness.time {
                        update.bind(key, at: 1)
                        try database.transaction { _ = try update.step() }
                        sqlite3_reset(update.pointer)
                        var groups: [(String, Int, Int, Double)] = []
                        while try totals.step() {
                            groups.append(
                                (
                                    sqlite3_column_text(totals.pointer, 0).map { String(cString: $0) } ?? "",
                                    Int(sqlite3_column_int64(totals.pointer, 1)),
                                    Int(sqlite3_column_int64(totals.pointer, 2)),
                                    sqlite3_column_double(totals.pointer, 3)
                                ))
                        }
                        sqlite3_reset(totals.pointer)
                        consume(groups)
                    })
            }
            return Sample(
                milliseconds: Harness.median(latencies), p99Milliseconds: LiveQuery.percentile(0.99, of: latencies))
        }
    }
}
