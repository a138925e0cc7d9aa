import CLibPQ
import Foundation
import Strata

/// The rows of one statement, in libpq's text format or (for fetches, see
/// ``PostgresConnection/preparedQuery(_:_:binaryResults:)``) its binary format, freed with the result.
package final class PostgresResult {
    let handle: OpaquePointer
    /// The number of rows.
    package let count: Int
    /// The number of columns.
    package let columnCount: Int32
    /// Whether the values are in PostgreSQL's binary format (network byte order) rather than text.
    let isBinary: Bool
    /// How each column's values are decoded, by column.
    private let kinds: [PostgresColumnKind]

    init(handle: OpaquePointer) {
        self.handle = handle
        self.count = Int(PQntuples(handle))
        self.columnCount = PQnfields(handle)
        self.isBinary = columnCount > 0 && PQfformat(handle, 0) == 1
        self.kinds = (0..<columnCount).map {
            PostgresColumnKind(type: PQftype(handle, $0), modifier: PQfmod(handle, $0))
        }
    }

    deinit { PQclear(handle) }

    /// How many rows an `INSERT`, `UPDATE` or `DELETE` changed.
    package var affectedRows: Int {
        Int(String(cString: PQcmdTuples(handle))) ?? 0
    }

    package func isNull(row: Int, column: Int32) -> Bool {
        PQgetisnull(handle, Int32(row), column) == 1
    }

    /// A column's text; `nil` for NULL. In a binary result, only text-like columns read as their text.
    package func text(row: Int, column: Int32) -> String? {
        guard !isNull(row: row, column: column) else { return nil }
        return String(cString: PQgetvalue(handle, Int32(row), column))
    }

    /// An integer column (0 for NULL).
    package func int64(row: Int, column: Int32) -> Int64 {
        if isBinary {
            // The key and version of every fetched row: read straight from the 8 bytes of a `bigint`.
            let length = PQgetlength(handle, Int32(row), column)
            if length == 8, kinds[Int(column)] == .int8 {
                return Int64(
                    bigEndian: UnsafeRawPointer(PQgetvalue(handle, Int32(row), column)).loadUnaligned(as: Int64.self))
            }
            guard length > 0, case .integer(let value) = binaryValue(row: row, column: column) else { return 0 }
            return value
        }
        guard !isNull(row: row, column: column) else { return 0 }
        return strtoll(PQgetvalue(handle, Int32(row), column), nil, 10)
    }

    /// A column as Strata stores it: integers, reals (NaN as the text `'NaN'`), unsigned integers (`numeric(20,0)`:
    /// padded text above `Int64.max`), decimals (`numeric`: text), text, and bytes.
    package func storedValue(row: Int, column: Int32) -> StoredValue {
        guard !isNull(row: row, column: column) else { return .null }
        if isBinary { return binaryValue(row: row, column: column) }
        let raw = PQgetvalue(handle, Int32(row), column)!
        switch kinds[Int(column)] {
        case .int8, .int4, .int2:
            return .integer(strtoll(raw, nil, 10))
        case .bool:
            return .integer(raw.pointee == UInt8(ascii: "t") ? 1 : 0)
        case .float8, .float4:
            return PostgresType.real(String(cString: raw))
        case .numeric:
            return .text(String(cString: raw))
        case .unsigned:
            return PostgresType.unsigned(String(cString: raw))
        case .bytea:
            return .blob(PostgresType.bytes(hex: raw))
        case .text, .uuid, .timestamp, .jsonb, .other:
            return .text(String(cString: raw))
        }
    }

    /// Every row's values, as ``storedValue(row:column:)`` reads each.
    package var storedRows: [[StoredValue]] {
        (0..<count).map { row in (0..<columnCount).map { storedValue(row: row, column: $0) } }
    }

    /// A non-NULL value of a binary result.
    private func binaryValue(row: Int, column: Int32) -> StoredValue {
        let bytes = UnsafeRawBufferPointer(
            start: PQgetvalue(handle, Int32(row), column), count: Int(PQgetlength(handle, Int32(row), column)))
        return kinds[Int(column)].binaryValue(bytes)
    }

    /// Reads columns `1…` of `row` into `values`, column `offset + 1` at `values[columns.columns[offset].index]`,
    /// as ``storedValue(row:column:)`` reads each, and tells whether every value passes its property on its storage
    /// classes, tested as each value is read rather than in a second pass over the row. With `columns.readsVersion`,
    /// the version column after them goes to `version`.
    ///
    /// Each value is initialized over the slot's `NULL` (``StoreRow/readValues(_:into:version:)``'s requirement),
    /// and the bounds are checked once per row, not per column, as SQLite's reader does. The precondition is
    /// unreachable from server data: `columns` are property indexes of the fetched entity, the statement selects one
    /// column for each (and the version), and every caller passes values with one slot per property.
    func readValues(
        row: Int, _ columns: StoreRowColumns, into values: ValueSlots, version: inout Int64
    ) -> Bool {
        precondition(
            columns.requiredValueCount <= values.count
                && columns.columns.count + (columns.readsVersion ? 1 : 0) < kinds.count,
            "Strata: a row of \(columns.requiredValueCount) values and \(columns.columns.count) columns read into "
                + "\(values.count) values of \(kinds.count) columns")
        if columns.readsVersion { version = int64(row: row, column: columns.versionColumn) }
        guard isBinary else {
            return readTextValues(row: row, columns, into: values)
        }
        let row = Int32(row)
        return columns.columns.withUnsafeBufferPointer { columns in
            kinds.withUnsafeBufferPointer { kinds in
                var admitsAll = true
                var column: Int32 = 1
                for entry in columns {
                    // A length of 0 is NULL or an empty text or bytea; only then is NULL asked about.
                    let length = Int(PQgetlength(handle, row, column))
                    let value: StoredValue
                    if length == 0 && PQgetisnull(handle, row, column) == 1 {
                        value = .null
                    } else {
                        value = kinds[Int(column)].binaryValue(
                            UnsafeRawBufferPointer(start: PQgetvalue(handle, row, column), count: length))
                    }
                    admitsAll = entry.passing.admits(value) && admitsAll
                    values.initialize(entry.index, to: value)
                    column &+= 1
                }
                return admitsAll
            }
        }
    }

    /// ``readValues(row:_:into:version:)`` for a result in text format.
    private func readTextValues(
        row: Int, _ columns: StoreRowColumns, into values: ValueSlots
    ) -> Bool {
        var admitsAll = true
        var column: Int32 = 1
        for entry in columns.columns {
            let value = storedValue(row: row, column: column)
            admitsAll = entry.passing.admits(value) && admitsAll
            values.initialize(entry.index, to: value)
            column &+= 1
        }
        return admitsAll
    }
}

/// The PostgreSQL type OIDs and text forms Strata reads and binds.
package enum PostgresType {
    static let bool: Oid = 16
    static let bytea: Oid = 17
    static let int8: Oid = 20
    static let int2: Oid = 21
    static let int4: Oid = 23
    static let text: Oid = 25
    static let float4: Oid = 700
    static let float8: Oid = 701
    static let numeric: Oid = 1700
    /// Types a fetch of Strata's tables doesn't meet, read in binary all the same (see ``PostgresColumnKind``).
    static let name: Oid = 19
    static let json: Oid = 114
    static let unknown: Oid = 705
    static let bpchar: Oid = 1042
    static let varchar: Oid = 1043
    static let timestamp: Oid = 1114
    static let timestamptz: Oid = 1184
    static let uuid: Oid = 2950
    static let jsonb: Oid = 3802
    /// The type modifier of `numeric(20,0)`, the unsigned-integer column type: `(precision << 16 | scale) + 4`.
    static let unsignedModifier: Int32 = (20 << 16) + 4

    /// A `double precision` value from its text form (PostgreSQL 12+ prints the shortest exact digits).
    static func real(_ text: String) -> StoredValue {
        switch text {
        case "NaN": return .text("NaN")
        case "Infinity": return .real(.infinity)
        case "-Infinity": return .real(-.infinity)
        default: return Double(text).map { .real($0) } ?? .text(text)
        }
    }

    /// The text a `double precision` parameter is bound as: Swift's shortest exact digits.
    static func text(of value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
        return "\(value)"
    }

    /// An unsigned 64-bit value as Strata stores it: an integer up to `Int64.max`, else 20 zero-padded digits.
    static func unsigned(_ text: String) -> StoredValue {
        if let value = Int64(text) { return .integer(value) }
        return .text(String(repeating: "0", count: max(0, 20 - text.utf8.count)) + text)
    }

    /// The bytes of `bytea`'s hex output (`\x0a1b…`).
    static func bytes(hex: UnsafePointer<CChar>) -> [UInt8] {
        var bytes: [UInt8] = []
        var pointer = hex + 2
        func nibble(_ character: CChar) -> UInt8 {
            let value = UInt8(bitPattern: character)
            switch value {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return value - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return value - UInt8(ascii: "a") + 10
            default: return value &- UInt8(ascii: "A") &+ 10
            }
        }
        while pointer.pointee != 0, pointer.successor().pointee != 0 {
            bytes.append(nibble(pointer.pointee) << 4 | nibble(pointer.successor().pointee))
            pointer += 2
        }
        return bytes
    }
}
