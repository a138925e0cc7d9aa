import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

@Model
final class LockingCounter {
    var name: String
    var value: Int
    var note: String

    init(name: String, value: Int = 0, note: String = "") {
        self.name = name
        self.value = value
        self.note = note
    }
}

/// Optimistic locking: every row carries a version (`Z_OPT`) that a save checks for each updated or deleted row.
@Suite("Optimistic locking")
struct OptimisticLockingTests {
    /// A store with one counter, and two containers over it (separate connections, as two processes would be).
    private func twoWriters(_ kind: StoreKind) throws -> (TestStore, ModelContext, ModelContext) {
        let store = TestStore(kind)
        let seed = ModelContext(try store.container(LockingCounter.self))
        seed.insert(LockingCounter(name: "visits", value: 0, note: "start"))
        try seed.save()
        let first = ModelContext(try store.container(LockingCounter.self))
        let second = ModelContext(try store.container(LockingCounter.self))
        return (store, first, second)
    }

    private func counter(in context: ModelContext) throws -> LockingCounter {
        try #require(try context.fetch(FetchDescriptor<LockingCounter>()).first)
    }

    private func stored(_ store: TestStore) throws -> LockingCounter {
        try counter(in: ModelContext(try store.container(LockingCounter.self)))
    }

    @Test(
        "Inserts start at version 0, each saved update adds 1, and fetched models remember the version",
        arguments: StoreKind.all)
    func versionsMove(_ kind: StoreKind) throws {
        let (store, first, _) = try twoWriters(kind)
        let model = try counter(in: first)
        #expect(model.persistentBackingData.rowVersion == 0)
        model.value = 1
        try first.save()
        #expect(model.persistentBackingData.rowVersion == 1)
        model.value = 2
        try first.save()
        #expect(try stored(store).persistentBackingData.rowVersion == 2)
    }

    @Test(
        "Under .error a save of a row changed elsewhere throws mergeConflict naming it, writes nothing, keeps the changes",
        arguments: StoreKind.all)
    func errorPolicyReportsConflict(_ kind: StoreKind) throws {
        let (store, first, second) = try twoWriters(kind)
        first.mergePolicy = .error
        let mine = try counter(in: first)
        let theirs = try counter(in: second)
        theirs.value = 10
        try second.save()
        mine.value = 1
        mine.note = "mine"
        first.insert(LockingCounter(name: "other"))
        do {
            try first.save()
            Issue.record("the save should conflict")
        } catch StrataError.mergeConflict(let conflicts) {
            #expect(conflicts.count == 1)
            let conflict = try #require(conflicts.first)
            #expect(conflict.entityName == "LockingCounter")
            #expect(conflict.persistentModelID == mine.persistentModelID)
            #expect(conflict.conflictingProperties == ["value"])
            #expect(conflict.storedValues["value"] == "10")
            #expect(conflict.expectedVersion == 0 && conflict.storedVersion == 1)
            #expect(!conflict.isDeletion)
        }
        #expect(first.hasChanges)
        #expect(mine.value == 1)
        let after = ModelContext(try store.container(LockingCounter.self))
        #expect(try after.fetchCount(FetchDescriptor<LockingCounter>()) == 1)
        #expect(try counter(in: after).value == 10)
        // Retried in a fresh context, the change goes through.
        let retry = ModelContext(try store.container(LockingCounter.self))
        retry.mergePolicy = .error
        try counter(in: retry).value += 1
        try retry.save()
        #expect(try stored(store).value == 11)
    }

    @Test(
        "Under .error deleting a row changed elsewhere conflicts; a row deleted elsewhere conflicts for an update",
        arguments: StoreKind.all)
    func errorPolicyDeletes(_ kind: StoreKind) throws {
        let (store, first, second) = try twoWriters(kind)
        // The store's files live as long as the test: a save to a deleted file is refused.
        defer { withExtendedLifetime(store) {} }
        first.mergePolicy = .error
        let mine = try counter(in: first)
        try counter(in: second).note = "theirs"
        try second.save()
        first.delete(mine)
        #expect {
            try first.save()
        } throws: { error in
            guard case StrataError.mergeConflict(let conflicts) = error else { return false }
            return conflicts.map(\.isDeletion) == [true]
        }
        first.rollback()
        let (otherStore, third, fourth) = try twoWriters(kind)
        defer { withExtendedLifetime(otherStore) {} }
        third.mergePolicy = .error
        let changed = try counter(in: third)
        fourth.delete(try counter(in: fourth))
        try fourth.save()
        changed.value = 5
        #expect {
            try third.save()
        } throws: { error in
            guard case StrataError.mergeConflict(let conflicts) = error else { return false }
            return conflicts.map(\.storedVersion) == [nil] && String(describing: error).contains("deleted elsewhere")
        }
    }

    @Test(
        "The default merges by property: this context's changes win, the other writer's other properties stay",
        arguments: StoreKind.all)
    func objectTrumpMergesByProperty(_ kind: StoreKind) throws {
        let (store, first, second) = try twoWriters(kind)
        let mine = try counter(in: first)
        let theirs = try counter(in: second)
        theirs.value = 10
        theirs.note = "theirs"
        try second.save()
        mine.value = 1
        try first.save()
        let saved = try stored(store)
        #expect(saved.value == 1 && saved.note == "theirs")
        #expect(mine.note == "theirs")
        #expect(mine.persistentBackingData.rowVersion == 2)
        mine.note = "again"
        try first.save()
        #expect(try stored(store).note == "again")
    }

    @Test("Store trump keeps the properties changed elsewhere and writes the others", arguments: StoreKind.all)
    func storeTrump(_ kind: StoreKind) throws {
        let (store, first, second) = try twoWriters(kind)
        first.mergePolicy = .mergeByPropertyStoreTrump
        let mine = try counter(in: first)
        try counter(in: second).value = 10
        try second.save()
        mine.value = 1
        mine.note = "mine"
        try first.save()
        let saved = try stored(store)
        #expect(saved.value == 10 && saved.note == "mine")
        #expect(mine.value == 10)
    }

    @Test("Overwrite writes the whole model over the other writer's changes", arguments: StoreKind.all)
    func overwrite(_ kind: StoreKind) throws {
        let (store, first, second) = try twoWriters(kind)
        first.mergePolicy = .overwrite
        let mine = try counter(in: first)
        let theirs = try counter(in: second)
        theirs.value = 10
        theirs.note = "theirs"
        try second.save()
        mine.value = 1
        try first.save()
        let saved = try stored(store)
        #expect(saved.value == 1 && saved.note == "start")
    }

    @Test(
        "Rollback keeps the stored row and gives the model its values, discarding its changes", arguments: StoreKind.all
    )
    func rollback(_ kind: StoreKind) throws {
        let (store, first, second) = try twoWriters(kind)
        first.mergePolicy = .rollback
        let mine = try counter(in: first)
        let theirs = try counter(in: second)
        theirs.value = 10
        try second.save()
        mine.value = 1
        mine.note = "mine"
        try first.save()
        let saved = try stored(store)
        #expect(saved.value == 10 && saved.note == "start")
        #expect(mine.value == 10 && mine.note == "start")
        #expect(!first.hasChanges)
        mine.value = 11
        try first.save()
        #expect(try stored(store).value == 11)
    }

    @Test(
        "Several writers incrementing one counter under .error with retry lose no increment; without retry every loss is reported",
        arguments: StoreKind.all)
    func concurrentIncrements(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        let seed = ModelContext(try store.container(LockingCounter.self))
        seed.insert(LockingCounter(name: "visits"))
        try seed.save()
        let containers = try (0..<3).map { _ in try store.container(LockingCounter.self) }
        let rounds = 20
        // Interleaved: every writer reads before any writes, so most first attempts conflict.
        var conflicts = 0
        for _ in 0..<rounds {
            var pending = containers.map { container -> ModelContext in
                let context = ModelContext(container)
                context.mergePolicy = .error
                return context
            }
            for context in pending { try counter(in: context).value += 1 }
            while !pending.isEmpty {
                let context = pending.removeFirst()
                do {
                    try context.save()
                } catch StrataError.mergeConflict {
                    conflicts += 1
                    let retry = ModelContext(context.container)
                    retry.mergePolicy = .error
                    try counter(in: retry).value += 1
                    pending.append(retry)
                }
            }
        }
        #expect(conflicts > 0)
        #expect(try stored(store).value == rounds * containers.count)

        // Without retry: every increment either lands or is reported.
        var reported = 0
        var landed = 0
        let start = try stored(store).value
        for _ in 0..<rounds {
            let contexts = containers.map { container -> ModelContext in
                let context = ModelContext(container)
                context.mergePolicy = .error
                return context
            }
            for context in contexts { try counter(in: context).value += 1 }
            for context in contexts {
                do {
                    try context.save()
                    landed += 1
                } catch StrataError.mergeConflict {
                    reported += 1
                }
            }
        }
        #expect(reported > 0)
        #expect(landed + reported == rounds * containers.count)
        #expect(try stored(store).value == start + landed)
    }
}
