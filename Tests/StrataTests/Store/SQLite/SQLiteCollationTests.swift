import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

@Suite("Strata SQL collations")
struct SQLiteCollationTests {
    private static let words = [
        "file10", "File2", "file1", "école", "Ecole", "zebra", "Äpfel", "apple", "ß", "東京", "😀", "",
    ]

    private func sorted(_ words: [String], collation: String) throws -> [String] {
        let connection = try SQLiteConnection(location: .memory)
        try connection.execute("CREATE TABLE w(word TEXT)")
        for word in words {
            try connection.run("INSERT INTO w VALUES (?)", [.text(word)])
        }
        return try connection.query("SELECT word FROM w ORDER BY word COLLATE \(collation)", []).map { row in
            guard case .text(let word) = row[0] else { return "" }
            return word
        }
    }

    @Test(arguments: StrataStringOrdering.allCases.filter { $0.collationName != nil })
    func orderByMatchesFoundation(ordering: StrataStringOrdering) throws {
        let expected = Self.words.sorted { StrataText.compare($0, $1, ordering: ordering) == .orderedAscending }
        #expect(try sorted(Self.words, collation: try #require(ordering.collationName)) == expected)
    }

    @Test func localizedStandardSortsNumbersByValue() throws {
        #expect(
            try sorted(["file10", "file2", "file1"], collation: "STRATA_LOCALIZED_STANDARD") == [
                "file1", "file2", "file10",
            ])
        #expect(try sorted(["file10", "file2", "file1"], collation: "BINARY") == ["file1", "file10", "file2"])
    }

    @Test func caseInsensitiveCollationComparesEqual() throws {
        let connection = try SQLiteConnection(location: .memory)
        let rows = try connection.query(
            "SELECT ? = ? COLLATE STRATA_CASE_INSENSITIVE, ? = ?",
            [.text("ÉCOLE"), .text("école"), .text("ÉCOLE"), .text("école")])
        #expect(rows == [[.integer(1), .integer(0)]])
    }

    @Test func decimalCollationOrdersAndComparesByValue() throws {
        let connection = try SQLiteConnection(location: .memory)
        try connection.execute(
            "CREATE TABLE price(amount TEXT COLLATE STRATA_DECIMAL); CREATE INDEX price_amount ON price(amount)")
        for amount in ["10", "9.99", "-3", "100.5", "0.000001", "1e3", "not a number"] {
            try connection.run("INSERT INTO price VALUES (?)", [.text(amount)])
        }
        let ordered = try connection.query("SELECT amount FROM price ORDER BY amount", []).map { $0[0] }
        #expect(ordered == ["-3", "0.000001", "9.99", "10", "100.5", "1e3", "not a number"].map(StoredValue.text))
        let cheaper = try connection.query("SELECT count(*) FROM price WHERE amount < ?", [.text("10.0")])
        #expect(cheaper == [[.integer(3)]])
        #expect(try connection.query("SELECT count(*) FROM price WHERE amount = '10.00'", []) == [[.integer(1)]])
    }
}
