/// A set of primary keys kept as one sorted array without duplicates: the keys a fetch leaves out
/// (``StoreFetch/excludedKeys``).
///
/// A fetch with unsaved changes names its changed and deleted rows' keys. Kept sorted, they are built with one
/// sort of integers, hashed and compared as one array (a fetch statement is looked up by its keys), looked up by
/// binary search as rows are read, and bound to SQLite's statement as the sorted list it searches, without hashing
/// each key on every one of those steps.
package struct SortedKeys: Hashable, Sendable, ExpressibleByArrayLiteral {
    /// The keys in ascending order, each once.
    package let sorted: [Int64]

    /// The keys of `keys`, in any order, duplicates allowed.
    package init(_ keys: [Int64]) {
        var sorted = keys
        sorted.sort()
        var kept = 0
        for key in sorted where kept == 0 || sorted[kept - 1] != key {
            sorted[kept] = key
            kept += 1
        }
        sorted.removeLast(sorted.count - kept)
        self.sorted = sorted
    }

    /// The keys of the literal, in any order, duplicates allowed.
    package init(arrayLiteral keys: Int64...) {
        self.init(keys)
    }

    /// Whether there are no keys.
    package var isEmpty: Bool { sorted.isEmpty }

    /// How many keys there are.
    package var count: Int { sorted.count }

    /// Whether `key` is one of the keys.
    package func contains(_ key: Int64) -> Bool {
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            let found = sorted[middle]
            if found == key { return true }
            if found < key { low = middle + 1 } else { high = middle }
        }
        return false
    }
}
