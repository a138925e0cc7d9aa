import Foundation
import Strata
import Testing

@testable import StrataTestFixtures

@Model final class CascadeRack {
    var number: Int
    @Relationship(deleteRule: .cascade, inverse: \CascadeVolume.rack) var volumes: [CascadeVolume] = []
    init(number: Int) { self.number = number }
}

@Model final class CascadeVolume {
    @Attribute(.preserveValueOnDeletion) var title: String
    var rack: CascadeRack?
    @Relationship(deleteRule: .cascade, inverse: \CascadeLeaf.volume) var leaves: [CascadeLeaf] = []
    @Relationship(deleteRule: .nullify, inverse: \CascadeNote.volume) var notes: [CascadeNote] = []
    init(title: String, rack: CascadeRack?) { (self.title, self.rack) = (title, rack) }
}

@Model final class CascadeLeaf {
    var volume: CascadeVolume?
    init(volume: CascadeVolume?) { self.volume = volume }
}

@Model final class CascadeNote {
    var text: String
    var volume: CascadeVolume?
    init(text: String, volume: CascadeVolume?) { (self.text, self.volume) = (text, volume) }
}

@Suite("A batch delete whose delete rule cascades")
struct BatchDeleteRowsTests {
    /// `racks` racks of `volumes` volumes each, every volume with one leaf and one note; racks numbered from 0.
    private func makeLibrary(_ kind: StoreKind, racks: Int, volumes: Int) throws -> ModelContainer {
        let container = try freshContainer(
            kind, CascadeRack.self, CascadeVolume.self, CascadeLeaf.self, CascadeNote.self)
        let context = ModelContext(container)
        for number in 0..<racks {
            let rack = CascadeRack(number: number)
            context.insert(rack)
            for index in 0..<volumes {
                let volume = CascadeVolume(title: "v\(number)-\(index)", rack: rack)
                context.insert(volume)
                context.insert(CascadeLeaf(volume: volume))
                context.insert(CascadeNote(text: "n\(number)-\(index)", volume: volume))
            }
        }
        try context.save()
        return container
    }

    @Test(
        "The history of delete(model:where:) names every row the cascade removed, volumes with their preserved titles",
        arguments: StoreKind.all)
    func historyNamesCascadedRows(_ kind: StoreKind) throws {
        let container = try makeLibrary(kind, racks: 3, volumes: 2)
        let context = ModelContext(container)
        try context.delete(model: CascadeRack.self, where: #Predicate { $0.number < 2 })
        try context.save()

        let last = try #require(try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).last)
        var deleted: [String: Int] = [:]
        var titles: [String] = []
        for change in last.changes {
            guard case .delete(let delete) = change else {
                Issue.record("expected only deletions, found \(change)")
                continue
            }
            deleted[change.changedPersistentIdentifier.entityName, default: 0] += 1
            if let title = (delete as? DefaultHistoryDelete<CascadeVolume>)?.tombstone[\CascadeVolume.title] {
                titles.append(title as? String ?? "?")
            }
        }
        #expect(deleted == ["CascadeRack": 2, "CascadeVolume": 4, "CascadeLeaf": 4])
        #expect(titles.sorted() == ["v0-0", "v0-1", "v1-0", "v1-1"])
        // The nullify rule of the deleted volumes' notes held: the notes stay, without a volume.
        let notes = try ModelContext(container).fetch(FetchDescriptor<CascadeNote>(sortBy: [SortDescriptor(\.text)]))
        #expect(notes.map { $0.volume?.title } == [nil, nil, nil, nil, "v2-0", "v2-1"])
    }

    @Test(
        "A batch delete that matches no row removes none and records no change; the next one removes its rows",
        arguments: StoreKind.all)
    func deleteMatchingNothing(_ kind: StoreKind) throws {
        let container = try makeLibrary(kind, racks: 2, volumes: 1)
        let context = ModelContext(container)
        let before = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).count
        try context.delete(model: CascadeRack.self, where: #Predicate { $0.number > 5 })
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<CascadeLeaf>()) == 2)
        let after = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        #expect(after.dropFirst(before).allSatisfy { $0.changes.isEmpty })

        try context.delete(model: CascadeRack.self, where: #Predicate { $0.number >= 0 })
        try context.save()
        let last = try #require(try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).last)
        #expect(last.changes.count == 2 + 2 + 2)
        #expect(try context.fetchCount(FetchDescriptor<CascadeRack>()) == 0)
    }

    @Test(
        "Models of rows the cascade removed end deleted, in the saving context and in another one",
        arguments: StoreKind.all)
    func registeredModelsEndDeleted(_ kind: StoreKind) throws {
        let container = try makeLibrary(kind, racks: 2, volumes: 2)
        let context = ModelContext(container)
        let other = ModelContext(container)
        let volumes = try context.fetch(FetchDescriptor<CascadeVolume>(sortBy: [SortDescriptor(\.title)]))
        let leaves = try other.fetch(FetchDescriptor<CascadeLeaf>())
        try context.delete(model: CascadeRack.self, where: #Predicate { $0.number == 0 })
        try context.save()

        #expect(volumes.map(\.isDeleted) == [true, true, false, false])
        #expect(try other.fetchCount(FetchDescriptor<CascadeLeaf>()) == 2)
        #expect(leaves.filter(\.isDeleted).count == 2)
    }

    @Test(
        "A cascading batch delete runs the same statements for 2 rows below each deleted row as for 20, but for the history's tombstones",
        arguments: [2, 20])
    func statementsDoNotGrowWithTheRows(_ volumes: Int) throws {
        let container = try makeLibrary(.sqlite, racks: 4, volumes: volumes)
        let store = try #require(container.store as? SQLiteStore)
        let context = ModelContext(container)
        let before = store.executedStatementCount
        try context.delete(model: CascadeRack.self, where: #Predicate { $0.number < 2 })
        try context.save()
        // The leaves with one `DELETE` noting their keys, the volumes (their preserved titles read) and the racks
        // each with a key `SELECT` and one `DELETE`, the matching check of `delete(model:where:)`, the transaction
        // and the history's rows: one per entity and one tombstone per deleted volume (its preserved title); no
        // schema check, the library's save on the same connection being the last commit. Before, the store's
        // cascade removed the rows below row by row, and the history named the racks alone; then the leaves' keys
        // were read by a `SELECT` of their own (11 + 2 × volumes).
        #expect(store.executedStatementCount - before == 10 + 2 * volumes)
        #expect(try context.fetchCount(FetchDescriptor<CascadeLeaf>()) == 2 * volumes)
    }
}
