import Foundation
import StrataTestSupport
import Testing

@testable import Strata
@testable import StrataPostgres
@testable import StrataTestFixtures

@Suite("PostgreSQL: values read in binary are the values read as text, and round-trip through both stores")
struct PostgresBinaryResultTests {
    private func connection() throws -> PostgresConnection {
        try PostgresConnection(conninfo: try PostgresTestServer.requiredURL().absoluteString)
    }

    /// `SELECT expression` read in binary (as fetches read it).
    private func binary(_ connection: PostgresConnection, _ expression: String) throws -> StoredValue {
        try connection.query("SELECT \(expression)", [], resultFormat: 1).storedValue(row: 0, column: 0)
    }

    /// Equal, with reals compared bit for bit (so -0.0 is not 0.0).
    private func same(_ first: StoredValue, _ second: StoredValue) -> Bool {
        if case .real(let a) = first, case .real(let b) = second { return a.bitPattern == b.bitPattern }
        return first == second
    }

    /// Every type Strata's tables use, at its edges: the binary decoder must agree with the text decoder.
    static let sharedExpressions = [
        "0::bigint", "-1::bigint", "9223372036854775807::bigint", "(-9223372036854775807 - 1)::bigint", "NULL::bigint",
        "7::integer", "(-32768)::smallint", "true", "false",
        "0.1::float8", "'-0'::float8", "'NaN'::float8", "'Infinity'::float8", "'-Infinity'::float8",
        "1.7976931348623157e308::float8", "'5e-324'::float8", "-2.5e-300::float8", "0.1::real", "'NaN'::real",
        "0::numeric", "0.000::numeric", "-0.5::numeric", "'12345678901234567890.123'::numeric",
        "'-0.000000000000000000001'::numeric", "'1e100'::numeric", "'1.5e-20'::numeric", "10000::numeric",
        "99999999::numeric", "'100000000.00001'::numeric", "'0.00010'::numeric", "'123.4560'::numeric",
        "'-9999.9999'::numeric", "'NaN'::numeric", "'Infinity'::numeric", "'-Infinity'::numeric",
        "(repeat('9', 500) || '.' || repeat('1', 300) || '7')::numeric", "'123456'::numeric(10,-2)",
        "'18446744073709551615'::numeric(20,0)", "'9223372036854775807'::numeric(20,0)",
        "'9223372036854775808'::numeric(20,0)", "'42'::numeric(20,0)", "0::numeric(20,0)", "NULL::numeric",
        "''::text", "'héllo, wörld'::text", "'🦆 a longer text than fits in a small string'::text", "NULL::text",
        "'\\x'::bytea", "'\\x00ff10'::bytea", "'{\"a\": 1}'::json",
    ]

    @Test(
        "Integers, reals (-0.0, NaN, infinities), numerics of every shape, text and bytes read the same in binary",
        .needsPostgreSQL)
    func binaryMatchesText() throws {
        let connection = try connection()
        for expression in Self.sharedExpressions {
            let text = try connection.query("SELECT \(expression)", []).storedValue(row: 0, column: 0)
            let binary = try binary(connection, expression)
            #expect(same(binary, text), "\(expression): binary \(binary), text \(text)")
        }
    }

    @Test("Numerics read in binary print every digit, as PostgreSQL prints them", .needsPostgreSQL)
    func numericDigits() throws {
        let connection = try connection()
        #expect(try binary(connection, "'12345678901234567890.123'::numeric") == .text("12345678901234567890.123"))
        #expect(try binary(connection, "'-0.000000000000000000001'::numeric") == .text("-0.000000000000000000001"))
        #expect(try binary(connection, "'0.00010'::numeric") == .text("0.00010"))
        #expect(try binary(connection, "'1e20'::numeric") == .text("100000000000000000000"))
        #expect(try binary(connection, "'123456'::numeric(10,-2)") == .text("123500"))
        #expect(try binary(connection, "'NaN'::numeric") == .text("NaN"))
        #expect(try binary(connection, "'18446744073709551615'::numeric(20,0)") == .text("18446744073709551615"))
        #expect(try binary(connection, "'9223372036854775807'::numeric(20,0)") == .integer(.max))
    }

    @Test(
        "Reals read in binary keep -0.0's sign, infinities, and NaN as the text 'NaN' Strata stores", .needsPostgreSQL)
    func realEdges() throws {
        let connection = try connection()
        #expect(try binary(connection, "'-0'::float8") == .real(-0.0))
        if case .real(let zero) = try binary(connection, "'-0'::float8") { #expect(zero.sign == .minus) }
        #expect(try binary(connection, "'-Infinity'::float8") == .real(-.infinity))
        #expect(try binary(connection, "'NaN'::float8") == .text("NaN"))
    }

    @Test("uuid, timestamptz and jsonb read in binary as Strata stores UUID, Date and JSON", .needsPostgreSQL)
    func otherTypes() throws {
        let connection = try connection()
        let uuid = UUID()
        #expect(
            try binary(connection, "'\(uuid.uuidString)'::uuid") == .blob(withUnsafeBytes(of: uuid.uuid) { Array($0) }))
        #expect(try binary(connection, "'2001-01-01 00:00:00+00'::timestamptz") == .real(0))
        #expect(try binary(connection, "'2000-01-01 00:00:00+00'::timestamptz") == .real(-366 * 86_400))
        #expect(
            try binary(connection, "'1970-01-01 00:00:00.5+00'::timestamptz")
                == .real(Date(timeIntervalSince1970: 0.5).timeIntervalSinceReferenceDate))
        #expect(
            try binary(connection, "'1999-12-31 23:59:59.999999+00'::timestamptz") == .real(-366 * 86_400 - 0.000001))
        #expect(try binary(connection, "'infinity'::timestamptz") == .real(.infinity))
        #expect(try binary(connection, "'-infinity'::timestamptz") == .real(-.infinity))
        #expect(try binary(connection, "'{\"a\": [1, 2]}'::jsonb") == .text("{\"a\": [1, 2]}"))
    }

    @Test("Text read in binary is the String(decoding:as:) of its bytes: ill-formed UTF-8 repaired, every length")
    func textBytesDecodeAsUTF8() {
        let samples: [[UInt8]] = [
            [], Array("a".utf8), Array("fifteen bytes!!".utf8), Array("sixteen bytes!!!".utf8),
            Array("héllo, wörld 🦆".utf8), Array(repeating: UInt8(ascii: "x"), count: 1000),
            [0xFF], [0x61, 0xC3], [0xC3, 0x28, 0x61], [0xED, 0xA0, 0x80], [0xF0, 0x9F, 0xA6], [0x00, 0x62],
            Array("long enough to leave the inline form".utf8) + [0xE2, 0x82],
        ]
        for bytes in samples {
            let expected = StoredValue.text(String(decoding: bytes, as: UTF8.self))
            bytes.withUnsafeBytes { raw in
                #expect(PostgresColumnKind.text.binaryValue(raw) == expected, "\(bytes)")
                #expect(PostgresColumnKind.jsonb.binaryValue(UnsafeRawBufferPointer(start: nil, count: 0)) == .null)
            }
            ([1] + bytes).withUnsafeBytes { raw in
                #expect(PostgresColumnKind.jsonb.binaryValue(raw) == expected, "jsonb \(bytes)")
            }
        }
    }

    @Test("A binary result's integers read as integers, NULL as 0", .needsPostgreSQL)
    func binaryIntegers() throws {
        let connection = try connection()
        let result = try connection.query(
            "SELECT 9223372036854775807::bigint, NULL::bigint, 12::integer", [], resultFormat: 1)
        #expect(result.int64(row: 0, column: 0) == .max)
        #expect(result.int64(row: 0, column: 1) == 0)
        #expect(result.int64(row: 0, column: 2) == 12)
    }

    @Test(
        "Decimals of 38 digits and large or tiny exponents, UInt64 past Int64.max and Dates at their edges come back exactly",
        arguments: StoreKind.all)
    func storedValuesRoundTrip(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        let decimals = try [
            "12345678901234567890123456789012345678", "-0.00000000000000000000000000000000000000000000001",
            "1e100", "-98765.4321e-30", "0.0001", "10000", "99999999.99999999",
        ].map { try #require(Decimal(string: $0)) }
        let dates = [
            Date.distantPast, .distantFuture, Date(timeIntervalSinceReferenceDate: -0.000_001),
            Date(timeIntervalSinceReferenceDate: 1e-7),
        ]
        let unsigned: [UInt64] = [.max, UInt64(Int64.max) + 1, UInt64(Int64.max), 0]
        do {
            let context = ModelContext(try store.container(Everything.self))
            for index in 0..<decimals.count {
                let model = Everything()
                model.int = index
                model.decimal = decimals[index]
                model.date = dates[index % dates.count]
                model.uint64 = unsigned[index % unsigned.count]
                context.insert(model)
            }
            try context.save()
        }
        let context = ModelContext(try store.container(Everything.self))
        let models = try context.fetch(FetchDescriptor<Everything>(sortBy: [SortDescriptor(\.int)]))
        #expect(models.map(\.decimal) == decimals)
        #expect(models.map(\.date) == (0..<decimals.count).map { dates[$0 % dates.count] })
        #expect(models.map(\.uint64) == (0..<decimals.count).map { unsigned[$0 % unsigned.count] })
    }
}
