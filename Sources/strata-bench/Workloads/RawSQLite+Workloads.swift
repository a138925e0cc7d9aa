import CSQLite
import Foundation

/// The floor: each workload written against SQLite's C API, reading into plain `ItemRow` values.
final class RawWorkloads {
    let options: Options
    /// The `largeRows`-row store shared by the read-only workloads, built on first use.
    private var largeStore: (path: String, database: RawDatabase)?

    init(options: Options) { self.options = options }

    deinit { removeLargeStore() }

    func removeLargeStore() {
        guard let path = largeStore?.path else { return }
        largeStore = nil
        TemporaryStore.remove(path)
    }

    /// Runs `body` with a fresh store holding the schema and `rows` rows, then removes it.
    func withStore(rows: Int, _ body: (RawDatabase) throws -> Sample) throws -> Sample {
        let path = TemporaryStore.makePath("raw")
        defer { TemporaryStore.remove(path) }
        let database = try RawDatabase(path: path)
        try database.createSchema()
        if rows > 0 { try database.insertRows(rows) }
        return try body(database)
    }

    func large() throws -> RawDatabase {
        if let largeStore { return largeStore.database }
        let path = TemporaryStore.makePath("raw-large")
        let database = try RawDatabase(path: path)
        try database.createSchema()
        try database.insertRows(options.largeRows)
        largeStore = (path, database)
        return database
    }

    private func selectAll(_ database: RawDatabase) throws -> [(key: Int64, row: ItemRow)] {
        let statement = try database.prepare("SELECT \"Z_PK\", \(RawDatabase.columnList) FROM \"Item\"")
        var rows: [(key: Int64, row: ItemRow)] = []
        while try statement.step() { rows.append((sqlite3_column_int64(statement.pointer, 0), statement.row(from: 1))) }
        return rows
    }

    // MARK: - Workloads

    func insert() throws -> Sample {
        try withStore(rows: 0) { database in
            Sample(milliseconds: try Harness.time { try database.insertRows(options.rows) })
        }
    }

    func fetchAll() throws -> Sample {
        try withStore(rows: options.rows) { database in
            try Harness.measure(rows: options.rows) {
                let rows = try selectAll(database)
                consume(rows.reduce(0) { $0 &+ $1.row.checksum })
            }
        }
    }

    func sortedLimit() throws -> Sample {
        let database = try large()
        return try Harness.measure(rows: Query.limit) {
            let statement = try sortedLimitStatement(database, withKey: false)
            var rows: [ItemRow] = []
            while try statement.step() { rows.append(statement.row()) }
            consume(rows)
        }
    }

    /// Workload 3's statement, bound: the ten columns (after the primary key, `withKey`) of the first
    /// `Query.limit` rows above the score threshold, by score.
    func sortedLimitStatement(_ database: RawDatabase, withKey: Bool) throws -> RawStatement {
        let statement = try database.prepare(
            "SELECT \(withKey ? "\"Z_PK\", " : "")\(RawDatabase.columnList) FROM \"Item\" "
                + "WHERE \"score\" > ? ORDER BY \"score\" LIMIT ?")
        statement.bind(Query.scoreThreshold, at: 1)
        statement.bind(Query.limit, at: 2)
        return statement
    }

    func update() throws -> Sample {
        try withStore(rows: options.rows) { database in
            var rows = try selectAll(database)
            return Sample(
                milliseconds: try Harness.time {
                    let statement = try database.prepare("UPDATE \"Item\" SET \"count\" = ? WHERE \"Z_PK\" = ?")
                    try database.transaction {
                        for index in stride(from: 0, to: rows.count, by: 10) {
                            rows[index].row.count += 1
                            statement.bind(rows[index].row.count, at: 1)
                            statement.bind(Int(rows[index].key), at: 2)
                            _ = try statement.step()
                            sqlite3_reset(statement.pointer)
                        }
                    }
                })
        }
    }

    func deleteHalf() throws -> Sample {
        try withStore(rows: options.rows) { database in
            Sample(
                milliseconds: try Harness.time {
                    let statement = try database.prepare("DELETE FROM \"Item\" WHERE \"id\" < ?")
                    statement.bind(options.rows / 2, at: 1)
                    try database.transaction { _ = try statement.step() }
                })
        }
    }

    func count() throws -> Sample {
        let database = try large()
        return Sample(
            milliseconds: try Harness.time {
                let statement = try database.prepare(
                    "SELECT COUNT(*) FROM \"Item\" WHERE \"flagged\" = ? AND \"count\" < ?")
                statement.bind(1, at: 1)
                statement.bind(Query.countBelow, at: 2)
                guard try statement.step() else { throw RawSQLiteError(description: "COUNT returned no row") }
                consume(sqlite3_column_int64(statement.pointer, 0))
            })
    }

    func enumerate() throws -> Sample {
        let database = try large()
        return try Harness.timeWithMemory(rows: options.largeRows) {
            let statement = try database.prepare("SELECT \(RawDatabase.columnList) FROM \"Item\"")
            var checksum = 0
            while try statement.step() { checksum &+= statement.row().checksum }
            consume(checksum)
        }
    }
}
