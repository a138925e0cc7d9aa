/// The primary keys of a history row that stands for several changes (`strata_history_changes.keys`): the
/// differences between successive keys after the first (`row`), each zigzag-encoded (small negative and positive
/// steps both stay small) as a LEB128 varint. A row without a key list stands for consecutive keys (`row`,
/// `row + 1`, …), as history rows written before key lists were; a list is written only when the keys aren't
/// consecutive, so a run of scattered updates of one entity and attribute set is one row, not one per update.
package struct HistoryKeyList: Sendable {
    /// The encoded differences; one byte for a step of up to ±63.
    package private(set) var bytes: [UInt8] = []
    /// Whether every step so far was +1 (the list can then be left out).
    package private(set) var isConsecutive = true
    private var last: Int64

    /// A list whose first key is `first`.
    package init(first: Int64) { last = first }

    /// Appends the next key.
    package mutating func append(_ key: Int64) {
        let step = key &- last
        last = key
        if step != 1 { isConsecutive = false }
        var zigzag = UInt64(bitPattern: (step << 1) ^ (step >> 63))
        while zigzag >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: zigzag) | 0x80)
            zigzag >>= 7
        }
        bytes.append(UInt8(zigzag))
    }

    /// Appends `keys` in order, as ``append(_:)`` appends each: the run is encoded into one buffer of at most ten
    /// bytes a key and added to the list at once, not byte by byte through the entry that holds the list.
    package mutating func append(contentsOf keys: ArraySlice<Int64>) {
        var last = self.last
        var consecutive = isConsecutive
        let run = [UInt8](unsafeUninitializedCapacity: keys.count * 10) { buffer, count in
            var index = 0
            for key in keys {
                let step = key &- last
                last = key
                if step != 1 { consecutive = false }
                var zigzag = UInt64(bitPattern: (step << 1) ^ (step >> 63))
                while zigzag >= 0x80 {
                    buffer[index] = UInt8(truncatingIfNeeded: zigzag) | 0x80
                    index += 1
                    zigzag >>= 7
                }
                buffer[index] = UInt8(zigzag)
                index += 1
            }
            count = index
        }
        bytes.append(contentsOf: run)
        self.last = last
        isConsecutive = consecutive
    }

    /// The list as stored: `nil` when the keys are consecutive.
    package var stored: [UInt8]? { isConsecutive ? nil : bytes }

    /// The `count` keys a row stands for: from its first key `first` and its stored list (`nil`: consecutive).
    /// A list shorter than `count` - 1 steps (damaged) continues consecutively.
    package static func keys(first: Int64, count: Int64, list: [UInt8]?) -> [Int64] {
        let count = max(1, count)
        guard let list else { return (0..<count).map { first &+ $0 } }
        var keys = [first]
        keys.reserveCapacity(Int(clamping: count))
        var index = 0
        var key = first
        while Int64(keys.count) < count {
            var zigzag: UInt64 = 0
            var shift: UInt64 = 0
            var complete = false
            while index < list.count, shift < 64 {
                let byte = list[index]
                index += 1
                zigzag |= UInt64(byte & 0x7F) << shift
                shift += 7
                if byte < 0x80 { complete = true; break }
            }
            let step = complete ? Int64(bitPattern: (zigzag >> 1) ^ (0 &- (zigzag & 1))) : 1
            key = key &+ step
            keys.append(key)
        }
        return keys
    }
}
