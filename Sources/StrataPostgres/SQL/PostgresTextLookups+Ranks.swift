import Strata

extension PostgresTextLookups {
    /// The `jsonb` text of a ranked collation's table: every text's rank under `ordering`, equal texts sharing one.
    /// Texts are told apart by their bytes, as PostgreSQL's keys are (Swift's `==` would merge "é" and "e\u{301}"),
    /// and put in byte order first, so the ranks are the same for the same texts even where Foundation's comparison
    /// is not a total order (`caseInsensitiveCompare` over mixed composed and decomposed text).
    static func rankTable(_ texts: [String], ordering: StrataStringOrdering) -> String {
        let sorted = distinct(texts).sorted { StrataText.compare($0, $1, ordering: ordering) == .orderedAscending }
        return object(ranked(sorted, ordering: ordering, descending: false)[...], depth: 0)
    }

    /// Ranks for the first `count` distinct texts in the sort's direction (and the texts equal to the last of them),
    /// found as a bounded sort finds them: one comparison with the last kept text for most texts. Every other text
    /// shares the rank after them (before them, descending), so `ORDER BY` gives the first `count` rows exactly.
    static func prefixRanks(
        _ texts: [String], first count: Int, ordering: StrataStringOrdering, ascending: Bool
    ) -> Ranks {
        let precedes = { (left: String, right: String) in
            StrataText.compare(left, right, ordering: ordering) == (ascending ? .orderedAscending : .orderedDescending)
        }
        // In an order scattered by a hash of their bytes (the same every time): texts arriving in sort order would
        // each displace the last kept one, costing a binary search apiece instead of one comparison.
        let candidates = distinct(texts).map { (hash: $0.fnv1a, text: $0) }.sorted { $0.hash < $1.hash }.map(\.text)
        var kept: [String] = []
        guard count > 0 else { return Ranks(table: "{}", others: 0) }
        for text in candidates {
            if kept.count == count, let last = kept.last, !precedes(text, last) { continue }
            var low = 0, high = kept.count
            while low < high {
                let middle = (low + high) / 2
                if precedes(text, kept[middle]) { high = middle } else { low = middle + 1 }
            }
            kept.insert(text, at: low)
            if kept.count > count { kept.removeLast() }
        }
        if kept.count == count, let last = kept.last {
            let keptBytes = Set(kept.map { Array($0.utf8) })
            kept += candidates.filter {
                !keptBytes.contains(Array($0.utf8)) && StrataText.compare($0, last, ordering: ordering) == .orderedSame
            }
        }
        let entries = ranked(kept, ordering: ordering, descending: !ascending)
        let groups = entries.map(\.value).reduce(into: Set<String>()) { $0.insert($1) }.count
        return Ranks(table: object(entries[...], depth: 0), others: ascending ? groups : -1)
    }

    /// The texts once each by their bytes, in byte order.
    private static func distinct(_ texts: [String]) -> [String] {
        Dictionary(texts.map { (Array($0.utf8), $0) }, uniquingKeysWith: { first, _ in first })
            .sorted { $0.key.lexicographicallyPrecedes($1.key) }.map(\.value)
    }

    /// Ranks along `sorted` (a new rank wherever a text differs from the one before), counted down from the top
    /// for a descending list, so a larger rank is always a later text in ascending order.
    private static func ranked(
        _ sorted: [String], ordering: StrataStringOrdering, descending: Bool
    ) -> [(keys: [String], value: String)] {
        var ranks: [Int] = []
        ranks.reserveCapacity(sorted.count)
        for (index, text) in sorted.enumerated() {
            let isNew = index > 0 && StrataText.compare(sorted[index - 1], text, ordering: ordering) != .orderedSame
            ranks.append((ranks.last ?? 0) + (isNew ? 1 : 0))
        }
        let top = ranks.last ?? 0
        return zip(sorted, ranks).map { ([$0], String(descending ? top - $1 : $1)) }
    }
}
