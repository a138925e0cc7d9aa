import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

/// Saves of more rows than PostgreSQL's store sends in one pipeline (1,000 statements): conflicts, unique
/// violations and history in a later batch behave as in a save of a few rows, on both stores.
@Suite("Saves of thousands of rows")
struct ModelContextLargeSaveTests {
    /// More rows than two pipeline batches.
    private let rows = 2_500

    /// A store of `rows` counters named by number, and a second container's context over it.
    private func seeded(_ kind: StoreKind) throws -> (TestStore, ModelContext) {
        let store = TestStore(kind)
        let seed = ModelContext(try store.container(LockingCounter.self))
        for index in 0..<rows { seed.insert(LockingCounter(name: "\(index)", value: index, note: "seed")) }
        try seed.save()
        return (store, ModelContext(try store.container(LockingCounter.self)))
    }

    private func byName(_ context: ModelContext) throws -> [String: LockingCounter] {
        Dictionary(uniqueKeysWithValues: try context.fetch(FetchDescriptor<LockingCounter>()).map { ($0.name, $0) })
    }

    @Test(
        "Rows changed elsewhere among thousands of updates are merged property by property; the rest are written",
        arguments: StoreKind.all)
    func conflictsAmongManyUpdatesMerge(_ kind: StoreKind) throws {
        let (store, mine) = try seeded(kind)
        let models = try byName(mine)
        let other = ModelContext(try store.container(LockingCounter.self))
        let theirs = try byName(other)
        // Changed elsewhere: one row in each batch and the very last one.
        let changedElsewhere = ["5", "1500", "\(rows - 1)"]
        for name in changedElsewhere { theirs[name]!.value = -1 }
        try other.save()

        for model in models.values { model.note = "mine" }
        try mine.save()

        let stored = try byName(ModelContext(try store.container(LockingCounter.self)))
        #expect(stored.values.allSatisfy { $0.note == "mine" })
        #expect(changedElsewhere.allSatisfy { stored[$0]?.value == -1 && models[$0]?.value == -1 })
        #expect(stored.filter { $0.value.value == -1 }.count == changedElsewhere.count)
        #expect(stored["1499"]?.value == 1499)
    }

    @Test(
        "Under .error, one row changed elsewhere among thousands of updates and deletes fails the save and writes nothing",
        arguments: StoreKind.all)
    func errorPolicyAmongManyChanges(_ kind: StoreKind) throws {
        let (store, mine) = try seeded(kind)
        mine.mergePolicy = .error
        let models = try byName(mine)
        let other = ModelContext(try store.container(LockingCounter.self))
        let theirs = try byName(other)
        theirs["2100"]!.value = -1
        theirs["2400"]!.value = -2
        try other.save()

        for (name, model) in models {
            if Int(name)! >= 2000 { mine.delete(model) } else { model.note = "mine" }
        }
        let error = #expect(throws: StrataError.self) { try mine.save() }
        guard case .mergeConflict(let conflicts)? = error else {
            Issue.record("expected mergeConflict, got \(String(describing: error))")
            return
        }
        #expect(
            Set(conflicts.map(\.persistentModelID)) == [
                models["2100"]!.persistentModelID, models["2400"]!.persistentModelID,
            ])
        #expect(conflicts.allSatisfy { $0.isDeletion })
        let stored = try byName(ModelContext(try store.container(LockingCounter.self)))
        #expect(stored.count == rows)
        #expect(stored.values.allSatisfy { $0.note == "seed" })
    }

    @Test(
        "A unique value repeated in the last of thousands of inserts fails the save under .error and writes none of them",
        arguments: StoreKind.all)
    func uniqueViolationInALaterBatch(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        let context = ModelContext(try store.container(CatalogBook.self))
        context.mergePolicy = .error
        for index in 0..<rows { context.insert(CatalogBook(isbn: "isbn-\(index)", title: "book \(index)")) }
        context.insert(CatalogBook(isbn: "isbn-3", title: "again"))
        #expect {
            try context.save()
        } throws: {
            ($0 as? SwiftDataError)?.underlyingError
                == StrataError.uniqueConstraintViolation(entity: "CatalogBook", properties: ["isbn"])
        }
        #expect(try ModelContext(try store.container(CatalogBook.self)).fetchCount(FetchDescriptor<CatalogBook>()) == 0)
    }

    @Test(
        "Thousands of inserts, updates and deletes in one save are recorded in its history, every row once",
        arguments: StoreKind.all)
    func historyOfALargeSave(_ kind: StoreKind) throws {
        let (store, context) = try seeded(kind)
        defer { withExtendedLifetime(store) {} }
        let models = try byName(context)
        for (name, model) in models {
            switch Int(name)! % 3 {
            case 0: model.value += 1
            case 1: context.delete(model)
            default: break
            }
        }
        for index in 0..<rows { context.insert(LockingCounter(name: "new \(index)")) }
        try context.save()

        let last = try #require(try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).last)
        var counts: [String: Int] = [:]
        var identifiers = Set<PersistentIdentifier>()
        for change in last.changes {
            switch change {
            case .insert: counts["insert", default: 0] += 1
            case .update: counts["update", default: 0] += 1
            case .delete: counts["delete", default: 0] += 1
            }
            identifiers.insert(change.changedPersistentIdentifier)
        }
        #expect(counts == ["insert": rows, "update": (rows + 2) / 3, "delete": (rows + 1) / 3])
        #expect(identifiers.count == last.changes.count)
    }

    @Test(
        "A batch delete of thousands of scattered rows is recorded as deletes of exactly those rows, in key order",
        arguments: StoreKind.all)
    func historyOfABatchDelete(_ kind: StoreKind) throws {
        let (store, context) = try seeded(kind)
        defer { withExtendedLifetime(store) {} }
        // Inserted in value order, so key order is value order.
        let models = try context.fetch(FetchDescriptor<LockingCounter>(sortBy: [SortDescriptor(\.value)]))
        let deleted = models.filter { $0.value % 3 == 0 || $0.value > 2_000 }.map(\.persistentModelID)
        try context.delete(model: LockingCounter.self, where: #Predicate { $0.value % 3 == 0 || $0.value > 2_000 })
        try context.save()

        let last = try #require(try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).last)
        #expect(last.changes.map(\.changedPersistentIdentifier) == deleted)
        #expect(last.changes.allSatisfy { if case .delete = $0 { true } else { false } })
    }
}
