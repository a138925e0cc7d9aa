import CLibPQ
import Foundation

/// The PostgreSQL floor (`--store postgresql://…`): workloads 1–7 written against libpq, reading binary results
/// into plain `ItemRow` values. Each store is a fresh schema of the server, dropped when the workload ends.
final class RawPostgresWorkloads {
    let options: Options
    let url: URL
    /// The `largeRows`-row schema shared by the read-only workloads, built on first use.
    private var largeStore: (schema: String, connection: RawPostgresConnection)?

    init(url: URL, options: Options) {
        self.url = url
        self.options = options
    }

    deinit { removeLargeStore() }

    func removeLargeStore() {
        guard let schema = largeStore?.schema else { return }
        largeStore = nil
        RawPostgresConnection.dropSchema(schema, at: url)
    }

    /// Workloads 1–7, this floor against Strata over a `PostgresConfiguration`.
    func workloads(against strata: StrataWorkloads) -> [Workload] {
        let n = options.rows.formatted()
        let large = options.largeRows.formatted()
        return [
            Workload(name: "1 insert \(n) + save", raw: insert, strata: strata.insert),
            Workload(
                name: "2 fetch \(n), read all attributes", raw: fetchAll, strata: strata.fetchAll,
                object: fetchAllObjects),
            Workload(
                name: "3 predicate + sort + limit 50 over \(large)", raw: sortedLimit, strata: strata.sortedLimit,
                object: sortedLimitObjects, rounds: options.rounds * 10),
            Workload(name: "4 change 10% of \(n) + save", raw: update, strata: strata.update),
            Workload(name: "5 delete(model:where:) half of \(n) + save", raw: deleteHalf, strata: strata.deleteHalf),
            Workload(name: "6 fetchCount with predicate over \(large)", raw: count, strata: strata.count),
            Workload(name: "7 enumerate \(large)", raw: enumerate, strata: strata.enumerate, object: enumerateObjects),
        ]
    }

    /// Runs `body` on a fresh schema holding the table and `rows` rows, then drops the schema.
    func withStore(rows: Int, _ body: (RawPostgresConnection) throws -> Sample) throws -> Sample {
        let schema = RawPostgresConnection.makeSchemaName("raw")
        defer { RawPostgresConnection.dropSchema(schema, at: url) }
        let connection = try RawPostgresConnection(url: url, schema: schema)
        try connection.createSchema()
        if rows > 0 { try connection.copyRows(rows) }
        return try body(connection)
    }

    func large() throws -> RawPostgresConnection {
        if let largeStore { return largeStore.connection }
        let schema = RawPostgresConnection.makeSchemaName("raw_large")
        let connection = try RawPostgresConnection(url: url, schema: schema)
        largeStore = (schema, connection)
        try connection.createSchema()
        try connection.copyRows(options.largeRows)
        return connection
    }

    /// Every row with its primary key.
    private func selectAll(_ connection: RawPostgresConnection) throws -> [(key: Int, row: ItemRow)] {
        let result = try connection.run("SELECT \"Z_PK\", \(RawPostgresConnection.columnList) FROM \"Item\"")
        defer { PQclear(result) }
        return (0..<PQntuples(result)).map {
            (RawPostgresRows.int(result, $0, 0), RawPostgresRows.item(result, $0, from: 1))
        }
    }

    // MARK: - Workloads

    func insert() throws -> Sample {
        try withStore(rows: 0) { connection in
            Sample(milliseconds: try Harness.time { try connection.insertRows(options.rows) })
        }
    }

    func fetchAll() throws -> Sample {
        try withStore(rows: options.rows) { connection in
            try Harness.measure(rows: options.rows) {
                let rows = try selectAll(connection)
                consume(rows.reduce(0) { $0 &+ $1.row.checksum })
            }
        }
    }

    func sortedLimit() throws -> Sample {
        let connection = try large()
        return try Harness.measure(rows: Query.limit) {
            let result = try sortedLimitRows(connection, withKey: false)
            defer { PQclear(result) }
            consume((0..<PQntuples(result)).map { RawPostgresRows.item(result, $0) })
        }
    }

    /// Workload 3's query: the first `Query.limit` rows over the score threshold by score, with the primary key
    /// first when `withKey`. The caller clears the result.
    func sortedLimitRows(_ connection: RawPostgresConnection, withKey: Bool) throws -> OpaquePointer {
        let columns = (withKey ? "\"Z_PK\", " : "") + RawPostgresConnection.columnList
        return try connection.run(
            "SELECT \(columns) FROM \"Item\" WHERE \"score\" > $1 ORDER BY \"score\" LIMIT $2",
            [.double(Query.scoreThreshold), .int(Query.limit)])
    }

    func update() throws -> Sample {
        try withStore(rows: options.rows) { connection in
            var rows = try selectAll(connection)
            return Sample(
                milliseconds: try Harness.time {
                    try connection.transaction {
                        let changed = stride(from: 0, to: rows.count, by: 10)
                        for index in changed { rows[index].row.count += 1 }
                        try connection.pipeline("UPDATE \"Item\" SET \"count\" = $1 WHERE \"Z_PK\" = $2", changed) {
                            index in
                            [.int(rows[index].row.count), .int(rows[index].key)]
                        }
                    }
                })
        }
    }

    func deleteHalf() throws -> Sample {
        try withStore(rows: options.rows) { connection in
            Sample(
                milliseconds: try Harness.time {
                    try connection.transaction {
                        PQclear(try connection.run("DELETE FROM \"Item\" WHERE \"id\" < $1", [.int(options.rows / 2)]))
                    }
                })
        }
    }

    func count() throws -> Sample {
        let connection = try large()
        return Sample(
            milliseconds: try Harness.time {
                let result = try connection.run(
                    "SELECT COUNT(*) FROM \"Item\" WHERE \"flagged\" = $1 AND \"count\" < $2",
                    [.int(1), .int(Query.countBelow)])
                defer { PQclear(result) }
                guard PQntuples(result) == 1 else { throw RawSQLiteError(description: "COUNT returned no row") }
                consume(RawPostgresRows.int(result, 0, 0))
            })
    }

    /// Every row through a binary cursor, `Query.enumerateBatch` rows per `FETCH` (the batch Strata's
    /// `enumerate` loads), so memory stays flat as it does for Strata.
    func enumerate() throws -> Sample {
        let connection = try large()
        return try Harness.timeWithMemory(rows: options.largeRows) {
            var checksum = 0
            try connection.transaction {
                try connection.execute(
                    "DECLARE rows BINARY NO SCROLL CURSOR FOR SELECT \(RawPostgresConnection.columnList) FROM \"Item\"")
                while true {
                    let result = try connection.query("FETCH \(Query.enumerateBatch) FROM rows")
                    defer { PQclear(result) }
                    let count = PQntuples(result)
                    if count == 0 { break }
                    for row in 0..<count { checksum &+= RawPostgresRows.item(result, row).checksum }
                }
            }
            consume(checksum)
        }
    }
}
