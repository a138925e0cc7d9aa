import Testing

@testable import Strata
@testable import StrataTestFixtures

@Suite("SQLite dialect")
struct SQLiteDialectTests {
    @Test(arguments: [
        ("Book", "\"Book\""),
        ("", "\"\""),
        ("say \"hi\"", "\"say \"\"hi\"\"\""),
        ("\"", "\"\"\"\""),
        ("\"\"edge\"", "\"\"\"\"\"edge\"\"\""),
        ("naïve \"ü\"", "\"naïve \"\"ü\"\"\""),
    ])
    func quotedIdentifiersDoubleEveryQuote(name: String, quoted: String) {
        #expect(SQLiteDialect().quote(identifier: name) == quoted)
    }
}
