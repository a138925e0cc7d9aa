import Testing

@testable import Strata
@testable import StrataTestFixtures

@Suite("SQLiteStatement")
struct SQLiteStatementTests {
    private static let roundTripValues: [StoredValue] = [
        .null,
        .integer(0),
        .integer(Int64.min),
        .integer(Int64.max),
        .real(-0.5),
        .real(Double.greatestFiniteMagnitude),
        .text(""),
        .text("Café ß 東京 😀👍🏽"),
        .text("nul\0inside"),
        .blob([]),
        .blob([0, 1, 2, 255]),
    ]

    @Test(arguments: roundTripValues)
    func everyStoredValueRoundTrips(_ value: StoredValue) throws {
        let connection = try SQLiteConnection(location: .memory)
        try connection.execute("CREATE TABLE t(v)")
        try connection.run("INSERT INTO t(v) VALUES (?)", [value])
        #expect(try connection.query("SELECT v FROM t", []) == [[value]])
        #expect(try connection.query("SELECT v IS NULL FROM t", []) == [[.integer(value == .null ? 1 : 0)]])
    }

    @Test func typedColumnReadersReturnTheStoredData() throws {
        let connection = try SQLiteConnection(location: .memory)
        let statement = try connection.prepare("SELECT ? AS number, ? AS ratio, ? AS name, ? AS bytes, NULL AS absent")
        try statement.bind([.integer(Int64.min), .real(2.5), .text("Ünïcödé"), .blob([9, 8])])
        #expect(try statement.step())
        #expect(statement.columnCount == 5)
        #expect((0..<5).map(statement.columnName(at:)) == ["number", "ratio", "name", "bytes", "absent"])
        #expect(statement.int64(at: 0) == Int64.min)
        #expect(statement.double(at: 1) == 2.5)
        #expect(statement.text(at: 2) == "Ünïcödé")
        #expect(statement.blob(at: 3) == [9, 8])
        #expect(statement.isNull(at: 4))
        #expect(!statement.isNull(at: 0))
        #expect(try !statement.step())
    }

    @Test func nanIsStoredAsNull() throws {
        let connection = try SQLiteConnection(location: .memory)
        #expect(try connection.query("SELECT ?", [.real(.nan)]) == [[.null]])
    }

    @Test func prepareReturnsTheCachedStatementReset() throws {
        let connection = try SQLiteConnection(location: .memory)
        let first = try connection.prepare("SELECT ?")
        try first.bind([.integer(1)])
        #expect(try first.step())
        #expect(first.int64(at: 0) == 1)
        #expect(try !first.step())
        let second = try connection.prepare("SELECT ?")
        #expect(first === second)
        #expect(try second.step())
        #expect(second.isNull(at: 0))
    }

    @Test func resetRewindsAndClearsWhateverWasDoneSinceTheLastReset() throws {
        let connection = try SQLiteConnection(location: .memory)
        let statement = try connection.prepare("SELECT ?")
        // Bound but not stepped: the reset clears the value.
        try statement.bind(.integer(1), at: 1)
        statement.reset()
        #expect(try statement.step())
        #expect(statement.isNull(at: 0))
        // Stepped but not bound: the reset rewinds, and a second reset changes nothing.
        statement.reset()
        statement.reset()
        #expect(try statement.step())
        #expect(statement.isNull(at: 0))
        // Stepped mid-row and bound again: the reset rewinds and clears.
        statement.reset()
        try statement.bind(.text("kept"), at: 1)
        #expect(try statement.step())
        #expect(statement.text(at: 0) == "kept")
        statement.reset()
        #expect(!statement.isInProgress)
        #expect(try statement.step())
        #expect(statement.isNull(at: 0))
    }

    @Test(arguments: ["", "strata-bench", "Café ß 東京 😀"])
    func staticTextBindsAsText(_ text: String) throws {
        let connection = try SQLiteConnection(location: .memory)
        let statement = try connection.prepare("SELECT ?, typeof(?1)")
        try statement.bind(SQLiteStaticText(text), at: 1)
        #expect(try statement.step())
        #expect(statement.text(at: 0) == text)
        #expect(statement.text(at: 1) == "text")
        statement.reset()
        #expect(try statement.step())
        #expect(statement.isNull(at: 0))
    }

    @Test(arguments: ["", "Item", "a name longer than a small string holds in place", "Café ß 東京 😀"])
    func textBoundInPlaceIsReadWhileStepping(_ text: String) throws {
        let connection = try SQLiteConnection(location: .memory)
        try connection.execute("CREATE TABLE t(x)")
        let insert = try connection.prepare("INSERT INTO t VALUES (?)")
        try insert.withText(text, boundAt: 1) { _ = try insert.step() }
        // Reset and cleared when the call returns: run again unbound, the statement inserts NULL.
        _ = try insert.step()
        insert.reset()
        let select = try connection.prepare("SELECT x, typeof(x) FROM t ORDER BY rowid")
        #expect(try select.step())
        #expect(select.text(at: 0) == text)
        #expect(select.text(at: 1) == "text")
        #expect(try select.step())
        #expect(select.isNull(at: 0))
        #expect(try !select.step())
    }

    @Test func preparingAStatementThatIsMidIterationGivesAFreshOne() throws {
        let connection = try SQLiteConnection(location: .memory)
        try connection.execute("CREATE TABLE t(x); INSERT INTO t VALUES (1), (2), (3)")
        let outer = try connection.prepare("SELECT x FROM t ORDER BY x")
        var seen: [Int64] = []
        while try outer.step() {
            seen.append(outer.int64(at: 0))
            let inner = try connection.prepare("SELECT x FROM t ORDER BY x")
            #expect(inner !== outer)
            #expect(try inner.step())
        }
        #expect(seen == [1, 2, 3])
    }

    @Test func appendingFirstColumnIntegersReadsEveryRowAfterWhatIsThere() throws {
        let connection = try SQLiteConnection(location: .memory)
        try connection.execute("CREATE TABLE t(x, y); INSERT INTO t VALUES (3, 'c'), (1, 'a'), (2, 'b')")
        let before = connection.executedStatementCount
        let statement = try connection.prepare("SELECT x, y FROM t WHERE x > ? ORDER BY x")
        try statement.bind([.integer(0)])
        var integers: [Int64] = [7]
        try statement.appendFirstColumnIntegers(to: &integers)
        #expect(integers == [7, 1, 2, 3])
        #expect(connection.executedStatementCount == before + 1)
        // No row: nothing appended.
        statement.reset()
        try statement.bind([.integer(5)])
        try statement.appendFirstColumnIntegers(to: &integers)
        #expect(integers == [7, 1, 2, 3])
    }

    @Test func appendingFirstColumnIntegersThrowsTheFailedStepAndKeepsTheRowsBefore() throws {
        let connection = try SQLiteConnection(location: .memory)
        try connection.execute("CREATE TABLE t(x); INSERT INTO t VALUES (1), (2), (3)")
        // abs() of the smallest integer, computed from the row, overflows when the third row is stepped.
        let statement = try connection.prepare(
            "SELECT CASE WHEN x = 3 THEN abs(x - 9223372036854775807 - 4) ELSE x END FROM t ORDER BY rowid")
        var integers: [Int64] = []
        #expect(throws: SQLiteError.self) { try statement.appendFirstColumnIntegers(to: &integers) }
        #expect(integers == [1, 2])
        // Reset by the failure: the statement runs again from its first row.
        #expect(try statement.step())
        #expect(statement.int64(at: 0) == 1)
    }

    @Test func bindingTheWrongNumberOfValuesFails() throws {
        let connection = try SQLiteConnection(location: .memory)
        let error = try #require(throws: SQLiteError.self) {
            _ = try connection.query("SELECT ?, ?", [.integer(1)])
        }
        #expect(error.description.contains("SELECT ?, ?"))
    }

    @Test func syntaxErrorNamesTheSQL() throws {
        let connection = try SQLiteConnection(location: .memory)
        let error = try #require(throws: SQLiteError.self) {
            _ = try connection.prepare("SELEC 1")
        }
        #expect(error.sql == "SELEC 1")
        #expect(error.description.contains("syntax error"))
    }

    @Test func statementOutlivingItsConnectionThrowsInsteadOfCrashing() throws {
        var connection: SQLiteConnection? = try SQLiteConnection(location: .memory)
        let statement = try #require(connection).prepare("SELECT 1")
        connection = nil
        #expect(throws: SQLiteError.self) {
            _ = try statement.step()
        }
    }
}
