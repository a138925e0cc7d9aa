import Foundation
import Strata
import StrataPostgres
import Testing

/// PostgreSQL's literals, which its migrations write into DDL (a column's `DEFAULT`, a table's copied rows).
@Suite("PostgreSQL's literals")
struct PostgreSQLDialectLiteralTests {
    @Test("Special reals are spelled by name, text quotes doubled, blobs as bytea")
    func literals() {
        let dialect = PostgreSQLDialect()
        let values: [StoredValue] = [
            .null, .integer(-42), .real(2.5), .real(.infinity), .real(-.infinity), .real(.nan), .text("it's"),
            .blob([0x00, 0xAB]),
        ]
        #expect(
            values.map(dialect.literal) == [
                "NULL", "-42", "2.5", "'Infinity'", "'-Infinity'", "'NaN'", "'it''s'", #"'\x00ab'::bytea"#,
            ])
    }

    @Test("An inlined fragment quotes identifiers, writes values as literals and keeps parameters as placeholders")
    func inlined() {
        let fragment =
            SQLFragment(sql: "ALTER TABLE ") + .identifier("Tri\"p") + SQLFragment(sql: " ADD COLUMN ")
            + .identifier("name") + SQLFragment(sql: " text DEFAULT ") + .binding(.text("O'Hara"))
            + SQLFragment(sql: ", ") + .parameter
        #expect(
            fragment.inlined(in: PostgreSQLDialect())
                == #"ALTER TABLE "Tri""p" ADD COLUMN "name" text DEFAULT 'O''Hara', $1"#)
    }
}
