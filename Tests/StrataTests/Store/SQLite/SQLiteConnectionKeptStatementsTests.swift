import Testing

@testable import Strata

/// The statements a connection keeps by number: compiled once, found again without hashing their text, and never
/// handed out twice while one is producing rows.
@Suite("SQLiteConnection kept statements")
struct SQLiteConnectionKeptStatementsTests {
    private static let titles = SQLiteConnection.KeptSQL("SELECT title FROM book ORDER BY id")
    private static let insert = SQLiteConnection.KeptSQL("INSERT INTO book(title) VALUES (?)")

    private func bookConnection() throws -> SQLiteConnection {
        let connection = try SQLiteConnection(location: .memory)
        try connection.execute("CREATE TABLE book(id INTEGER PRIMARY KEY, title TEXT)")
        return connection
    }

    @Test func aKeptStatementIsCompiledOnceAndCountedEachRun() throws {
        let connection = try bookConnection()
        let compiled = connection.compiledStatementCount
        let executed = connection.executedStatementCount
        for title in ["Dune", "Emma", "Kindred"] {
            let statement = try connection.prepare(Self.insert)
            defer { statement.reset() }
            try statement.bind(.text(title), at: 1)
            try statement.runToCompletion()
        }
        #expect(connection.compiledStatementCount == compiled + 1)
        #expect(connection.executedStatementCount == executed + 3)
        #expect(try connection.query("SELECT count(*) FROM book", []) == [[.integer(3)]])
    }

    @Test func aKeptStatementProducingRowsIsNotHandedOutAgain() throws {
        let connection = try bookConnection()
        try connection.run("INSERT INTO book(title) VALUES ('Dune'), ('Emma')", [])
        let outer = try connection.prepare(Self.titles)
        defer { outer.reset() }
        var pairs: [(String, Int)] = []
        while try outer.step() {
            let title = outer.text(at: 0)
            let inner = try connection.prepare(Self.titles)
            defer { inner.reset() }
            #expect(inner !== outer)
            var count = 0
            while try inner.step() { count += 1 }
            pairs.append((title, count))
        }
        #expect(pairs.map(\.0) == ["Dune", "Emma"])
        #expect(pairs.map(\.1) == [2, 2])
        // Once the outer loop is done, the kept statement is handed out again.
        outer.reset()
        #expect(try connection.prepare(Self.titles) === outer)
    }

    @Test func aStatementOwnedByAnObjectIsCompiledOncePerOwner() throws {
        final class Shape {}
        let connection = try bookConnection()
        let sql = "INSERT INTO book(title) VALUES (?)"
        let first = Shape()
        let second = Shape()
        let compiled = connection.compiledStatementCount
        for (title, owner) in [("Dune", first), ("Emma", first), ("Kindred", second), ("Beloved", first)] {
            let statement = try connection.prepare(sql, ownedBy: owner)
            defer { statement.reset() }
            try statement.bind(.text(title), at: 1)
            try statement.runToCompletion()
        }
        #expect(connection.compiledStatementCount == compiled + 2)
        #expect(try connection.prepare(sql, ownedBy: first) === connection.prepare(sql, ownedBy: first))
        #expect(try connection.query("SELECT count(*) FROM book", []) == [[.integer(4)]])
    }
}
