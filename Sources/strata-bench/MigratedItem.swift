import Foundation
import Strata

/// `Item` as a later release declares it, for the migration workloads.
enum MigratedItem {
    /// `Item` with one attribute added that has an initial value: a migration that adds a column.
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
        var rating: Int = 0

        init(id: Int) {
            self.id = id
            score = 0
            name = ""
            created = .now
            isActive = false
            count = 0
            category = ""
            weight = 0
            flagged = false
        }
    }
}

/// `Item` with `flagged` removed: a migration that rebuilds the table.
enum TrimmedItem {
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

        init(id: Int) {
            self.id = id
            score = 0
            name = ""
            created = .now
            isActive = false
            count = 0
            category = ""
            weight = 0
        }
    }
}
