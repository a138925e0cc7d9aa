import Testing

@testable import Strata
@testable import StrataTestFixtures

@Suite("strata_note_key: the keys of the rows a DELETE removes")
struct SQLiteFunctionsKeyNotesTests {
    /// Rows 1…12 of a table with `a` = key mod 2 (indexed) and `b` = key mod 3.
    private func shelfConnection() throws -> SQLiteConnection {
        let connection = try SQLiteConnection(location: .memory)
        try connection.execute(
            """
            CREATE TABLE "Shelf" ("Z_PK" INTEGER PRIMARY KEY, "a" INTEGER NOT NULL, "b" INTEGER NOT NULL);
            CREATE INDEX "Shelf_a" ON "Shelf" ("a")
            """)
        for key in 1...12 {
            let values: [StoredValue] = [.integer(Int64(key)), .integer(Int64(key % 2)), .integer(Int64(key % 3))]
            try connection.run("INSERT INTO \"Shelf\" VALUES (?, ?, ?)", values)
        }
        return connection
    }

    /// Runs `DELETE FROM "Shelf" WHERE <condition> AND strata_note_key(?1, "Z_PK")` and returns its notes.
    private func delete(where condition: String, on connection: SQLiteConnection) throws -> SQLiteKeyNotes {
        let statement = try connection.prepare(
            "DELETE FROM \"Shelf\" WHERE \(condition) AND \(SQLiteFunctions.noteKey)(?1, \"Z_PK\")")
        let notes = SQLiteKeyNotes()
        defer { statement.reset() }
        try statement.bind(notes, at: 1)
        try statement.runToCompletion()
        return notes
    }

    private func keys(_ connection: SQLiteConnection) throws -> [StoredValue] {
        try connection.query("SELECT \"Z_PK\" FROM \"Shelf\" ORDER BY 1", []).map { $0[0] }
    }

    @Test("A DELETE notes the key of every row it removes, and only those")
    func notesTheDeletedRows() throws {
        let connection = try shelfConnection()
        let notes = try delete(where: "\"a\" = 1", on: connection)
        #expect(connection.changes == 6)
        #expect(notes.keys.sorted() == [1, 3, 5, 7, 9, 11])
        let deleted = try notes.deletedKeys(connection.changes, of: "Shelf", on: connection)
        #expect(deleted.sorted() == [1, 3, 5, 7, 9, 11])
        #expect(try keys(connection) == [2, 4, 6, 8, 10, 12].map { .integer($0) })
    }

    @Test("A key noted for a row a later term turned down is left out of the deleted keys")
    func leavesOutRowsNotDeleted() throws {
        let connection = try shelfConnection()
        // The index on `a` covers the noting term (the key is in every index) but not `b`'s: SQLite evaluates the
        // covered term first, so every row with `a` = 1 is noted, and those with `b` ≠ 0 stay.
        let notes = try delete(where: "\"a\" = 1 AND \"b\" = 0", on: connection)
        #expect(connection.changes == 2)
        #expect(notes.keys.count > 2)
        #expect(try notes.deletedKeys(connection.changes, of: "Shelf", on: connection) == [3, 9])
        #expect(try keys(connection) == [1, 2, 4, 5, 6, 7, 8, 10, 11, 12].map { .integer($0) })
    }

    @Test("Without notes bound the function turns every row down, and SQL can't make notes of its own")
    func withoutNotesNothingIsDeleted() throws {
        let connection = try shelfConnection()
        try connection.run("DELETE FROM \"Shelf\" WHERE \(SQLiteFunctions.noteKey)(?, \"Z_PK\")", [.integer(1)])
        #expect(connection.changes == 0)
        #expect(try keys(connection).count == 12)
    }
}
