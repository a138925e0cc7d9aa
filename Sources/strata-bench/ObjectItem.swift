import Foundation
import Observation

/// The object floor's model: what any SwiftData-shaped object graph has to make for a fetched row — an
/// `@Observable` class instance holding the row's ten values, with no persistence machinery at all. Its properties
/// and initializer are `Item`'s on purpose: the floor must hold exactly what the model holds.
@Observable
final class ObjectItem {
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

    /// The same sum `Item.checksum` computes, read through the observed getters.
    var checksum: Int {
        ItemRow.checksum(id, score, name, created, isActive, note, count, category, weight, flagged)
    }
}
