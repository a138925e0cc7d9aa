import CSQLite
import Foundation

extension SQLiteFunctions {
    /// `strata_key_listed(list, key)`: 1 when `key` is one of `list`'s, else 0. The list is one blob of sorted
    /// 64-bit keys in the machine's byte order (``keyList(_:)``), bound as one value, so a statement's text is the
    /// same whatever the keys; a fetch leaves out its excluded keys with it, on the index entry it steps, before
    /// the row itself is read.
    package static let keyListed = "strata_key_listed"

    /// `keys` (sorted) as a key-list blob.
    package static func keyList(_ keys: [Int64]) -> [UInt8] {
        keys.withUnsafeBytes { Array($0) }
    }

    static func registerKeyFunctions(on handle: OpaquePointer) throws(SQLiteError) {
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS
        let result = sqlite3_create_function_v2(
            handle, keyListed, 2, flags, nil,
            { context, _, values in
                guard let values, let list = values[0], let rowKey = values[1] else { return }
                let count = Int(sqlite3_value_bytes(list)) / MemoryLayout<Int64>.stride
                guard count > 0, let bytes = sqlite3_value_blob(list) else {
                    return sqlite3_result_int(context, 0)
                }
                func listed(at index: Int) -> Int64 {
                    bytes.loadUnaligned(fromByteOffset: index * MemoryLayout<Int64>.stride, as: Int64.self)
                }
                let wanted = sqlite3_value_int64(rowKey)
                var low = 0
                var high = count
                while low < high {
                    let middle = (low + high) / 2
                    if listed(at: middle) < wanted { low = middle + 1 } else { high = middle }
                }
                sqlite3_result_int(context, low < count && listed(at: low) == wanted ? 1 : 0)
            }, nil, nil, nil)
        guard result == SQLITE_OK else {
            throw SQLiteError(resultCode: result, connection: handle, sql: "function \(keyListed)")
        }
    }
}
