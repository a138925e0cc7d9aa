import Foundation
import Strata

/// The benchmark's model: ten attributes of the common storable kinds, with an index on `score`.
@Model
final class Item {
    #Index<Item>([\.score])

    var id: Int
    var score: Double
    var name: String
    var created: Date
    var isActive: Bool
    var note: String?
    var count: Int
    var category: String
    var weight: Double
    var flagged: Bool

    init(_ row: ItemRow) {
        id = row.id
        score = row.score
        name = row.name
        created = row.created
        isActive = row.isActive
        note = row.note
        count = row.count
        category = row.category
        weight = row.weight
        flagged = row.flagged
    }

    /// A number that depends on every attribute, so reading them can't be optimised away.
    var checksum: Int {
        ItemRow.checksum(
            id, score, name, created, isActive, note, count, category, weight, flagged)
    }
}

/// One row as plain Swift values: what the raw SQLite implementation reads into, and the source of every
/// generated row.
struct ItemRow {
    var id: Int
    var score: Double
    var name: String
    var created: Date
    var isActive: Bool
    var note: String?
    var count: Int
    var category: String
    var weight: Double
    var flagged: Bool

    /// The deterministic row number `index` of every store.
    static func make(_ index: Int) -> ItemRow {
        ItemRow(
            id: index,
            score: Double((index &* 7919) % 1_000_003) / 1_000_003,
            name: "item-\(index)",
            created: Date(timeIntervalSinceReferenceDate: Double(index)),
            isActive: index % 3 != 0,
            note: index % 5 == 0 ? nil : "note \(index)",
            count: index % 10_000,
            category: "category-\(index % 10)",
            weight: Double(index) * 0.5,
            flagged: index % 7 == 0)
    }

    /// A number that depends on every attribute.
    var checksum: Int {
        Self.checksum(id, score, name, created, isActive, note, count, category, weight, flagged)
    }

    /// The sum both implementations compute over the ten attributes.
    static func checksum(
        _ id: Int, _ score: Double, _ name: String, _ created: Date, _ isActive: Bool, _ note: String?,
        _ count: Int, _ category: String, _ weight: Double, _ flagged: Bool
    ) -> Int {
        var sum = id &+ Int(score * 1000) &+ name.utf8.count
        sum &+= Int(created.timeIntervalSinceReferenceDate) &+ (isActive ? 1 : 0)
        sum &+= (note?.utf8.count ?? 0) &+ count &+ category.utf8.count
        sum &+= Int(weight) &+ (flagged ? 1 : 0)
        return sum
    }
}

/// The query parameters both implementations use, so they do the same work.
enum Query {
    /// Workload 3: rows with `score` above this, by `score`, first 50.
    static let scoreThreshold = 0.5
    static let limit = 50
    /// Workload 5: rows with `id` below half the row count are deleted.
    /// Workload 6: rows with `flagged == true && count < countBelow` are counted (half of the flagged rows).
    static let countBelow = 5_000
    /// Workloads 10a and 10b: how many models are changed before the fetch (a tenth as many more are deleted,
    /// and a tenth as many inserted).
    static let pendingChanges = 100
    /// Workload 7: the models `enumerate` loads (and its object floor registers) per page — its default.
    static let enumerateBatch = 5000
    /// Workload 12b: the batch size of `fetch(_:batchSize:)` — a list loading what a screen shows.
    static let smallBatch = 100
}
