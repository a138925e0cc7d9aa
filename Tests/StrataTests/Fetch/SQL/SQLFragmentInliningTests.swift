import Foundation
import Testing

@testable import Strata

/// DDL takes no bindings: a fragment's values are written as the dialect's literals when it is inlined, and every
/// literal reads back in SQLite as the value it stands for.
@Suite("SQL fragments inlined as SQLite's literals")
struct SQLFragmentInliningTests {
    private static let values: [StoredValue] = [
        .null, .integer(-42), .real(2.5), .real(.infinity), .real(-.infinity), .text("it's"), .blob([0x00, 0xAB]),
    ]

    @Test("Identifiers are quoted and values become literals; parameters stay placeholders")
    func inliningKeepsTheShape() {
        let fragment =
            SQLFragment(sql: "ALTER TABLE ") + .identifier("Tri\"p") + SQLFragment(sql: " ADD COLUMN ")
            + .identifier("name") + SQLFragment(sql: " TEXT DEFAULT ") + .binding(.text("O'Hara"))
        #expect(
            fragment.inlined(in: SQLiteDialect()) == #"ALTER TABLE "Tri""p" ADD COLUMN "name" TEXT DEFAULT 'O''Hara'"#)
        let statement = SQLFragment(sql: "SELECT ") + .binding(.integer(1)) + SQLFragment(sql: ", ") + .parameter
        #expect(statement.inlined(in: SQLiteDialect()) == "SELECT 1, ?")
    }

    @Test("SQLite reads each of its literals back as the value")
    func sqliteLiteralsReadBack() throws {
        let connection = try SQLiteConnection(location: .memory)
        for value in Self.values {
            let literal = SQLiteDialect().literal(value)
            let row = try #require(try connection.query("SELECT \(literal)", []).first)
            #expect(row == [value], "literal \(literal)")
        }
    }
}
