import Foundation
import StrataTestSupport
import Testing

@testable import Strata
@testable import StrataPostgres
@testable import StrataTestFixtures

@Suite("PostgreSQL: statements prepared once per connection", .needsPostgreSQL)
struct PostgresPreparedStatementTests {
    /// A connection of its own to the test server, its tables in a new schema named after `prefix`.
    private func connection(schema prefix: String) throws -> PostgresConnection {
        try PostgresTestServer.connectionInNewSchema(prefix)
    }

    /// The names of the statements `connection`'s session has prepared, as the server lists them.
    private func serverStatements(_ connection: PostgresConnection) throws -> [String] {
        let result = try connection.query("SELECT name FROM pg_prepared_statements ORDER BY name", [])
        return (0..<result.count).map { result.text(row: $0, column: 0) ?? "" }
    }

    @Test("The same SQL bound with other parameter types is prepared for those types, and reads them right")
    func parameterTypesAreKeys() throws {
        let connection = try connection(schema: "prepared_types")
        #expect(try connection.preparedQuery("SELECT $1", [.integer(5)]).storedValue(row: 0, column: 0) == .integer(5))
        // Prepared for bigint, "five" would be refused; prepared for text it comes back as text.
        #expect(
            try connection.preparedQuery("SELECT $1", [.text("five")]).storedValue(row: 0, column: 0) == .text("five"))
        #expect(try connection.preparedQuery("SELECT $1", [.real(2.5)]).storedValue(row: 0, column: 0) == .real(2.5))
        #expect(try connection.preparedQuery("SELECT $1", [.integer(6)]).storedValue(row: 0, column: 0) == .integer(6))
        #expect(connection.preparedStatementCount == 3)
        #expect(try serverStatements(connection).count == 3)
    }

    @Test(
        "Past its limit the least recently used statement is deallocated on the server; it is prepared again when run")
    func leastRecentlyUsedIsEvicted() throws {
        let connection = try connection(schema: "prepared_eviction")
        connection.preparedStatementLimit = 2
        try connection.preparedQuery("SELECT $1::bigint + 1", [.integer(1)])
        try connection.preparedQuery("SELECT $1::bigint + 2", [.integer(1)])
        try connection.preparedQuery("SELECT $1::bigint + 1", [.integer(1)])
        try connection.preparedQuery("SELECT $1::bigint + 3", [.integer(1)])
        #expect(connection.preparedStatementCount == 2)
        let statements = try connection.query("SELECT statement FROM pg_prepared_statements ORDER BY statement", [])
        #expect(
            (0..<statements.count).map { statements.text(row: $0, column: 0) } == [
                "SELECT $1::bigint + 1", "SELECT $1::bigint + 3",
            ])
        #expect(try connection.preparedQuery("SELECT $1::bigint + 2", [.integer(1)]).int64(row: 0, column: 0) == 3)
        #expect(try serverStatements(connection).count == 2)
    }

    @Test(
        "A statement whose result type changed is prepared again outside a transaction; inside one the transaction fails, then runs again"
    )
    func stalePlanIsPreparedAgain() throws {
        let connection = try connection(schema: "prepared_stale")
        try connection.execute("DROP TABLE IF EXISTS note; CREATE TABLE note (id bigint PRIMARY KEY, body text)")
        try connection.query("INSERT INTO note VALUES (1, 'a')", [])
        let select = "SELECT * FROM note WHERE id = $1"
        #expect(try connection.preparedQuery(select, [.integer(1)]).columnCount == 2)
        try connection.execute("ALTER TABLE note ADD COLUMN pages bigint")
        #expect(try connection.preparedQuery(select, [.integer(1)]).columnCount == 3)

        try connection.execute("ALTER TABLE note ADD COLUMN author text")
        let error = #expect(throws: PostgresError.self) {
            try connection.transaction {
                try connection.preparedQuery("INSERT INTO note (id, body) VALUES ($1, $2)", [.integer(2), .text("b")])
                try connection.preparedQuery(select, [.integer(1)])
            }
        }
        #expect(error?.isStalePlan == true)
        #expect(!connection.isInTransaction)
        // Rolled back: the insert before the failure isn't kept; the stale statement is gone, on the server too.
        #expect(try connection.query("SELECT count(*) FROM note", []).int64(row: 0, column: 0) == 1)
        let columns = try connection.transaction { try connection.preparedQuery(select, [.integer(1)]).columnCount }
        #expect(columns == 4)
        #expect(try serverStatements(connection).count == connection.preparedStatementCount)
    }

    @Test("A connection ended by the server is replaced; the new one prepares its statements afresh")
    func reconnectPreparesAgain() throws {
        let admin = try connection(schema: "prepared_reconnect")
        let url = try PostgresTestServer.requiredURL()
        let pool = PostgresConnectionPool(maximum: 1) { try PostgresConnection(conninfo: url.absoluteString) }
        let pid = try pool.withConnection { connection in
            try connection.preparedQuery("SELECT $1::bigint * 2", [.integer(21)])
            return try connection.preparedQuery("SELECT pg_backend_pid()", []).int64(row: 0, column: 0)
        }
        #expect(
            try admin.query("SELECT pg_terminate_backend($1::integer)", [.integer(pid)]).text(row: 0, column: 0) == "t")
        func run() throws -> (value: Int64, pid: Int64, prepared: Int) {
            try pool.withConnection { connection in
                let value = try connection.preparedQuery("SELECT $1::bigint * 2", [.integer(21)]).int64(
                    row: 0, column: 0)
                return (
                    value, try connection.preparedQuery("SELECT pg_backend_pid()", []).int64(row: 0, column: 0),
                    connection.preparedStatementCount
                )
            }
        }
        // The pool notices the ended session when it hands the connection out, or by the failure of its first query.
        let again = try (try? run()) ?? run()
        #expect(again.value == 42)
        #expect(again.pid != pid)
        #expect(again.prepared == 2)
    }

    // PostgreSQL only: SQLite tells a container of any migration elsewhere, whereas PostgreSQL lets statements run
    // while the columns they name are there.
    @Test("A container's prepared fetches and saves follow another container's migration as unprepared ones do")
    func migrationElsewhere() throws {
        let store = TestStore(.postgres)
        try store.seed(TripBase.Trip.self) { context in
            context.insert(TripBase.Trip(name: "Lisbon", days: 4, note: "tram"))
        }
        let old = try store.reopen(TripBase.Trip.self)
        let byName = FetchDescriptor<TripBase.Trip>(predicate: #Predicate { $0.name == "Lisbon" })
        #expect(try old.fetch(byName).map(\.days) == [4])
        old.insert(TripBase.Trip(name: "Oslo", days: 2))
        try old.save()

        // A column added elsewhere: the prepared statements still read and write the columns they name.
        _ = try store.reopen(TripAddedOptional.Trip.self)
        #expect(try old.fetch(byName).map(\.days) == [4])
        old.insert(TripBase.Trip(name: "Rome", days: 3))
        try old.save()
        // A column's type changed by another program: the fetch's result type changed, the fetch is prepared again.
        try store.execute("ALTER TABLE \"Trip\" ALTER COLUMN note TYPE varchar(40)")
        #expect(try old.fetch(byName).map(\.note) == ["tram"])
        #expect(try old.fetchCount(FetchDescriptor<TripBase.Trip>()) == 3)

        // A column dropped elsewhere: the same storeMigrated as an unprepared statement gets.
        _ = try store.reopen(TripRemovedNote.Trip.self)
        let fetchError = #expect(throws: StrataError.self) { try old.fetch(byName) }
        #expect(fetchError?.caseName == "storeMigrated")
        old.insert(TripBase.Trip(name: "Bern", days: 1, note: "lake"))
        let saveError = #expect(throws: StrataError.self) { try old.save() }
        #expect(saveError?.caseName == "storeMigrated")
    }

    @Test("A save meeting a statement another program made stale (its result type changed) is run again and written")
    func staleStatementInSaveIsRunAgain() throws {
        let store = TestStore(.postgres)
        let context = ModelContext(try store.container(Schema([CatalogBook.self])))
        context.insert(CatalogBook(isbn: "1", title: "first"))
        try context.save()
        // An upsert: `UPDATE … RETURNING "Z_OPT"` is prepared.
        context.insert(CatalogBook(isbn: "1", title: "second"))
        try context.save()
        try store.execute("ALTER TABLE \"CatalogBook\" ALTER COLUMN \"Z_OPT\" TYPE integer")
        context.insert(CatalogBook(isbn: "1", title: "third"))
        try context.save()
        let titles = try ModelContext(context.container).fetch(FetchDescriptor<CatalogBook>()).map(\.title)
        #expect(titles == ["third"])
    }
}
