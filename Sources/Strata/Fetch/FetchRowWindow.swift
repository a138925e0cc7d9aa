/// The rows of a fetch a store hands on as it reads them: all of them, or, when the fetch excludes keys, those
/// whose keys it doesn't exclude, after the offset and up to the limit, which the statement could not apply itself
/// (see ``StoreFetch/excludedKeys``).
package struct FetchRowWindow {
    private let excludedKeys: SortedKeys
    private var rowsToSkip: Int
    private var rowsToHand: Int

    /// The window of `fetch`.
    package init(_ fetch: StoreFetch) {
        excludedKeys = fetch.excludedKeys
        rowsToSkip = excludedKeys.isEmpty ? 0 : Swift.max(0, fetch.offset ?? 0)
        rowsToHand = excludedKeys.isEmpty ? .max : Swift.max(0, fetch.limit ?? .max)
    }

    /// Whether every row the fetch wants has been handed on: the store stops reading.
    package var isFull: Bool { rowsToHand == 0 }

    /// Whether every row read is handed on (no key is excluded): the store need not read a row's key for
    /// ``admits(_:)``.
    package var admitsEveryRow: Bool { excludedKeys.isEmpty }

    /// Whether the row with primary key `key`, read next, is handed on.
    package mutating func admits(_ key: Int64) -> Bool {
        guard !excludedKeys.isEmpty else { return true }
        guard rowsToHand > 0, !excludedKeys.contains(key) else { return false }
        if rowsToSkip > 0 {
            rowsToSkip -= 1
            return false
        }
        rowsToHand -= 1
        return true
    }
}
