import CSQLite
import Foundation

extension SQLiteFunctions {
    /// `strata_real_sum(x)`: the exact sum of a floating-point column rounded once (see ``FloatingSum``), NaN
    /// (stored as `'NaN'`) included; SQLite's own `sum` skips the text `'NaN'` and compensates rounding in the
    /// order rows come.
    package static let floatingSum = QueryAggregate.floatingSum.sqlName
    /// `strata_real_avg(x)`: `strata_real_sum(x)` divided by the number of non-null values.
    package static let floatingAverage = QueryAggregate.floatingAverage.sqlName

    static func registerAggregateFunctions(on handle: OpaquePointer) throws(SQLiteError) {
        try defineFloatingSum(floatingSum, on: handle) { context in
            guard let context else { return }
            let words = SQLiteFunctions.accumulator(context, allocating: false)
            SQLiteFunctions.setResult(
                words.map { StoredArithmetic.floatingSum($0, average: false) } ?? .null, on: context)
        }
        try defineFloatingSum(floatingAverage, on: handle) { context in
            guard let context else { return }
            let words = SQLiteFunctions.accumulator(context, allocating: false)
            SQLiteFunctions.setResult(
                words.map { StoredArithmetic.floatingSum($0, average: true) } ?? .null, on: context)
        }
    }

    /// The aggregate context of one `strata_real_sum`/`strata_real_avg` call; `nil` before any value when not
    /// `allocating` (or when SQLite is out of memory).
    fileprivate static func accumulator(
        _ context: OpaquePointer?, allocating: Bool
    ) -> UnsafeMutableBufferPointer<UInt64>? {
        let size = allocating ? Int32(FloatingSum.wordCount * MemoryLayout<UInt64>.stride) : 0
        guard let memory = sqlite3_aggregate_context(context, size) else { return nil }
        return UnsafeMutableBufferPointer(
            start: memory.bindMemory(to: UInt64.self, capacity: FloatingSum.wordCount), count: FloatingSum.wordCount)
    }

    /// Registers a one-argument aggregate that adds non-null values to a ``FloatingSum`` and reports it with
    /// `final`.
    private static func defineFloatingSum(
        _ name: String, on handle: OpaquePointer, final: @convention(c) (OpaquePointer?) -> Void
    ) throws(SQLiteError) {
        let result = sqlite3_create_function_v2(
            handle, name, 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, nil, nil,
            { context, _, values in
                guard let value = values?[0], sqlite3_value_type(value) != SQLITE_NULL else { return }
                guard let sum = SQLiteFunctions.accumulator(context, allocating: true) else {
                    return sqlite3_result_error_nomem(context)
                }
                // Strata stores NaN as the text 'NaN' (SQLite would turn a NaN real into NULL).
                let isNaN =
                    sqlite3_value_type(value) == SQLITE_TEXT && sqlite3_value_bytes(value) == 3
                    && sqlite3_value_text(value).map { String(cString: $0) } == "NaN"
                FloatingSum.add(isNaN ? .nan : sqlite3_value_double(value), to: sum)
            },
            final, nil)
        guard result == SQLITE_OK else {
            throw SQLiteError(resultCode: result, connection: handle, sql: "aggregate \(name)")
        }
    }
}
