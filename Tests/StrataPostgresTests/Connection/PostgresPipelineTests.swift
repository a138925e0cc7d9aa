import Foundation
import StrataTestSupport
import Testing

@testable import Strata
@testable import StrataPostgres
@testable import StrataTestFixtures

@Suite("PostgreSQL: statements sent in a pipeline", .needsPostgreSQL)
struct PostgresPipelineTests {
    /// A connection of its own to the test server, with a `note` table in a new schema.
    private func connection() throws -> PostgresConnection {
        let connection = try PostgresTestServer.connectionInNewSchema("pipeline")
        try connection.execute(
            "CREATE TABLE note (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, code bigint UNIQUE, body text)")
        return connection
    }

    /// The names of the statements the session has prepared, as the server lists them.
    private func serverStatements(_ connection: PostgresConnection) throws -> Set<String> {
        let result = try connection.query("SELECT name FROM pg_prepared_statements", [])
        return Set((0..<result.count).map { result.text(row: $0, column: 0) ?? "" })
    }

    private func count(_ connection: PostgresConnection) throws -> Int64 {
        try connection.query("SELECT count(*) FROM note", []).int64(row: 0, column: 0)
    }

    private let insert = "INSERT INTO note (code, body) VALUES ($1, $2) RETURNING id, code"

    @Test("Statements run in order across batches, each result handed back in order, each SQL and types prepared once")
    func resultsInOrder() throws {
        let connection = try connection()
        let count = PostgresConnection.pipelineBatch * 2 + 500
        var seen: [Int64] = []
        try connection.transaction {
            // Every third code NULL: the same SQL bound with other types is a second statement.
            try connection.pipeline(count) { index in
                .init(insert, [index % 3 == 0 ? .null : .integer(Int64(index)), .text("note \(index)")])
            } result: { index, result in
                #expect(
                    result.isNull(row: 0, column: 1) ? index % 3 == 0 : result.int64(row: 0, column: 1) == Int64(index))
                seen.append(result.int64(row: 0, column: 0))
            }
        }
        #expect(seen == Array(1...Int64(count)))
        #expect(try self.count(connection) == Int64(count))
        #expect(connection.preparedStatementCount == 2)
        #expect(try serverStatements(connection).count == 2)
    }

    @Test(
        "A failure in a later batch is the failing statement's own error; nothing after it runs, the transaction writes nothing"
    )
    func failureStopsThePipeline() throws {
        let connection = try connection()
        let failing = PostgresConnection.pipelineBatch + 200
        var handed = 0
        let error = #expect(throws: PostgresError.self) {
            try connection.transaction {
                try connection.pipeline(failing + 300) { index in
                    // The failing statement repeats the first code.
                    .init(insert, [.integer(index == failing ? 0 : Int64(index)), .text("x")])
                } result: { _, _ in
                    handed += 1
                }
            }
        }
        #expect(error?.isUniqueViolation == true)
        #expect(handed == PostgresConnection.pipelineBatch)
        #expect(!connection.isInTransaction)
        #expect(try count(connection) == 0)
        // The connection and its prepared statement still serve.
        try connection.pipeline(2) {
            .init(insert, [.integer(Int64($0)), .text("y")])
        } result: { _, _ in
        }
        #expect(try count(connection) == 2)
        #expect(try serverStatements(connection).count == connection.preparedStatementCount)
    }

    @Test("Statements a failed pipeline could not prepare are forgotten; those it prepared stay, as on the server")
    func preparedStatementsFollowTheServer() throws {
        let connection = try connection()
        let statements: [PostgresConnection.PipelinedStatement] = [
            .init("SELECT $1::bigint + 1", [.integer(1)]),
            .init("SELECT 1 / $1::bigint", [.integer(0)]), // prepared, fails when run
            .init("SELECT $1::bigint + 2", [.integer(1)]), // skipped: never prepared
        ]
        #expect(throws: PostgresError.self) {
            try connection.transaction {
                try connection.pipeline(statements.count) {
                    statements[$0]
                } result: { _, _ in
                }
            }
        }
        #expect(connection.preparedStatementCount == 2)
        #expect(try serverStatements(connection).count == 2)
        // The next transaction deallocates nothing that was never prepared (which would fail it).
        let seven = try connection.transaction {
            try connection.preparedQuery("SELECT $1::bigint + 7", [.integer(1)]).int64(row: 0, column: 0)
        }
        #expect(seven == 8)
        #expect(throws: PostgresError.self) {
            try connection.pipeline(2) { _ in
                .init("SELEC $1", [.integer(1)])
            } result: { _, _ in
            }
        }
        #expect(connection.preparedStatementCount == 3)
        var sums: [Int64] = []
        try connection.pipeline(statements.count) { index in
            index == 1 ? .init("SELECT $1::bigint * 3", [.integer(5)], isPrepared: false) : statements[index]
        } result: { _, result in
            sums.append(result.int64(row: 0, column: 0))
        }
        #expect(sums == [2, 15, 3])
        #expect(connection.preparedStatementCount == 4)
        #expect(try serverStatements(connection).count == 4)
    }

    @Test("Statements evicted past the limit in a pipeline are deallocated after it, not before their turn")
    func evictionInAPipeline() throws {
        let connection = try connection()
        connection.preparedStatementLimit = 2
        var values: [Int64] = []
        try connection.pipeline(8) { index in
            .init("SELECT $1::bigint + \(index % 4)", [.integer(10)])
        } result: { _, result in
            values.append(result.int64(row: 0, column: 0))
        }
        #expect(values == [10, 11, 12, 13, 10, 11, 12, 13])
        #expect(connection.preparedStatementCount == 2)
        #expect(try serverStatements(connection).count == 2)
    }

    @Test("A transaction begun and committed in pipelines keeps everything, and a failure anywhere in it keeps nothing")
    func pipelinedTransaction() throws {
        let connection = try connection()
        let first = try connection.transaction(beginningWith: .init(insert, [.integer(1), .text("a")])) { inserted in
            try connection.preparedQuery(insert, [.integer(2), .text("b")])
            return (inserted.int64(row: 0, column: 1), [.init(insert, [.integer(3), .text("c")])])
        }
        #expect(first == 1)
        #expect(try count(connection) == 3)
        // The first statement fails, then one of the last ones.
        #expect(throws: PostgresError.self) {
            try connection.transaction(beginningWith: .init(insert, [.integer(1), .text("d")])) { _ in ((), []) }
        }
        #expect(throws: PostgresError.self) {
            try connection.transaction(beginningWith: .init(insert, [.integer(4), .text("d")])) { _ in
                ((), [.init(insert, [.integer(5), .text("e")]), .init(insert, [.integer(1), .text("f")])])
            }
        }
        #expect(try count(connection) == 3)
        #expect(!connection.isInTransaction)
        // COMMIT itself fails (a deferred constraint): nothing is kept, and the connection serves on.
        try connection.execute("ALTER TABLE note ADD CONSTRAINT body_once UNIQUE (body) DEFERRABLE INITIALLY DEFERRED")
        let error = #expect(throws: PostgresError.self) {
            try connection.transaction(beginningWith: .init(insert, [.integer(6), .text("g")])) { _ in
                ((), [.init(insert, [.integer(7), .text("a")])])
            }
        }
        #expect(error?.isUniqueViolation == true)
        #expect(try count(connection) == 3)
        #expect(try connection.transaction { try count(connection) } == 3)
    }
}
