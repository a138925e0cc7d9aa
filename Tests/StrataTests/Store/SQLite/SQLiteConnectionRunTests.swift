import Testing

@testable import Strata
@testable import StrataTestFixtures

@Suite("SQLiteConnection running and transactions")
struct SQLiteConnectionRunTests {
    private func bookConnection() throws -> SQLiteConnection {
        let connection = try SQLiteConnection(location: .memory)
        try connection.execute("CREATE TABLE book(id INTEGER PRIMARY KEY, isbn TEXT UNIQUE, title TEXT)")
        return connection
    }

    private func titles(_ connection: SQLiteConnection) throws -> [StoredValue] {
        try connection.query("SELECT title FROM book ORDER BY id", []).map { $0[0] }
    }

    private struct Abort: Error {}

    @Test func lastInsertRowIDAndChanges() throws {
        let connection = try bookConnection()
        try connection.run("INSERT INTO book(title) VALUES (?)", [.text("Dune")])
        try connection.run("INSERT INTO book(title) VALUES (?)", [.text("Emma")])
        #expect(connection.lastInsertRowID == 2)
        try connection.run("UPDATE book SET title = upper(title)", [])
        #expect(connection.changes == 2)
    }

    @Test func transactionCommitsWhenBodyReturns() throws {
        let connection = try bookConnection()
        let id = try connection.transaction {
            try connection.run("INSERT INTO book(title) VALUES (?)", [.text("Dune")])
            return connection.lastInsertRowID
        }
        #expect(id == 1)
        #expect(!connection.isInTransaction)
        #expect(try titles(connection) == [.text("Dune")])
    }

    @Test func transactionRollsBackWhenBodyThrows() throws {
        let connection = try bookConnection()
        #expect(throws: Abort.self) {
            try connection.transaction {
                try connection.run("INSERT INTO book(title) VALUES (?)", [.text("Dune")])
                throw Abort()
            }
        }
        #expect(!connection.isInTransaction)
        #expect(try titles(connection).isEmpty)
    }

    @Test func nestedTransactionRollsBackOnlyItsOwnWork() throws {
        let connection = try bookConnection()
        try connection.transaction {
            try connection.run("INSERT INTO book(title) VALUES (?)", [.text("outer")])
            #expect(throws: Abort.self) {
                try connection.transaction {
                    try connection.run("INSERT INTO book(title) VALUES (?)", [.text("inner")])
                    throw Abort()
                }
            }
            try connection.transaction {
                try connection.run("INSERT INTO book(title) VALUES (?)", [.text("kept")])
            }
        }
        #expect(try titles(connection) == [.text("outer"), .text("kept")])
    }

    @Test func failedOuterTransactionUndoesCommittedSavepoints() throws {
        let connection = try bookConnection()
        #expect(throws: Abort.self) {
            try connection.transaction {
                try connection.transaction {
                    try connection.run("INSERT INTO book(title) VALUES (?)", [.text("inner")])
                }
                throw Abort()
            }
        }
        #expect(try titles(connection).isEmpty)
    }

    @Test func uniqueViolationIsFlagged() throws {
        let connection = try bookConnection()
        try connection.run("INSERT INTO book(isbn) VALUES (?)", [.text("978-0441013593")])
        let error = try #require(throws: SQLiteError.self) {
            try connection.run("INSERT INTO book(isbn) VALUES (?)", [.text("978-0441013593")])
        }
        #expect(error.isUniqueConstraintViolation)
        #expect(error.code == 19)
        #expect(!error.isBusy && !error.isCorrupt && !error.isReadOnly)
        #expect(!error.description.contains("978-0441013593"))
        // The failed statement is reset and usable again.
        try connection.run("INSERT INTO book(isbn) VALUES (?)", [.text("other")])
    }

    @Test func executedStatementCountCountsEachStatementOnce() throws {
        let connection = try bookConnection()
        let start = connection.executedStatementCount
        try connection.execute("INSERT INTO book(title) VALUES ('a'); INSERT INTO book(title) VALUES ('b')")
        #expect(connection.executedStatementCount == start + 2)
        _ = try connection.query("SELECT title FROM book", [])
        #expect(connection.executedStatementCount == start + 3)
        try connection.transaction {
            try connection.run("DELETE FROM book WHERE title = ?", [.text("a")])
        }
        _ = try connection.dataVersion()
        #expect(connection.executedStatementCount == start + 4)
    }

    @Test func dataVersionChangesWhenAnotherConnectionCommits() throws {
        let file = SQLiteTestFile()
        let first = try SQLiteConnection(location: .file(file.path))
        let second = try SQLiteConnection(location: .file(file.path))
        try first.execute("CREATE TABLE t(x)")
        let before = try first.dataVersion()
        #expect(try first.dataVersion() == before)
        try second.run("INSERT INTO t VALUES (?)", [.integer(1)])
        #expect(try first.dataVersion() != before)
    }

    @Test func executeStopsAtTheFirstFailingStatement() throws {
        let connection = try bookConnection()
        #expect(throws: SQLiteError.self) {
            try connection.execute(
                "INSERT INTO book(title) VALUES ('a'); INSERT INTO nowhere VALUES (1); INSERT INTO book(title) VALUES ('c')"
            )
        }
        #expect(try titles(connection) == [.text("a")])
    }

    @Test func lockedDatabaseReportsBusyAndLeavesNoTransactionOpen() throws {
        let file = SQLiteTestFile()
        let holder = try SQLiteConnection(location: .file(file.path))
        let waiter = try SQLiteConnection(location: .file(file.path))
        try holder.execute("CREATE TABLE t(x)")
        // Fail at once instead of waiting out the 5-second busy timeout.
        try waiter.execute("PRAGMA busy_timeout = 0")
        try holder.transaction {
            let error = try #require(throws: SQLiteError.self) {
                try waiter.transaction {
                    try waiter.run("INSERT INTO t VALUES (1)", [])
                }
            }
            #expect(error.isBusy)
            #expect(!waiter.isInTransaction)
            try holder.run("INSERT INTO t VALUES (2)", [])
        }
        try waiter.transaction {
            try waiter.run("INSERT INTO t VALUES (3)", [])
        }
        #expect(try holder.query("SELECT x FROM t ORDER BY x", []) == [[.integer(2)], [.integer(3)]])
    }
}
