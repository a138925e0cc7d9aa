import CSQLite
import Foundation

extension RawWorkloads {
    /// Workloads 18a and 18b: the floor of an aggregate fetch, a hand-written `GROUP BY` over the large table
    /// reading each group's key, row count, sum of `count` and largest `weight`, in key order.
    func groupBy(_ column: String) throws -> Sample {
        let database = try large()
        return try Harness.measure(rows: options.largeRows) {
            let statement = try database.prepare(
                "SELECT \"\(column)\", count(*), sum(\"count\"), max(\"weight\") FROM \"Item\" "
                    + "GROUP BY \"\(column)\" ORDER BY \"\(column)\"")
            var checksum = 0
            while try statement.step() {
                checksum &+= Int(sqlite3_column_int64(statement.pointer, 1))
                checksum &+= Int(sqlite3_column_int64(statement.pointer, 2))
                checksum &+= Int(sqlite3_column_double(statement.pointer, 3))
            }
            consume(checksum)
        }
    }
}
