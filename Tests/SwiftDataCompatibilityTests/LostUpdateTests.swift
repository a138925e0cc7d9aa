import Foundation
import SwiftData
import Testing

@Model final class PageCounter {
    @Attribute(.unique) var page: String
    var views: Int = 0
    init(page: String) { self.page = page }
}

/// Two app instances incrementing one counter on a shared store, each with its own container (so its own
/// connection), as services do: under Core Data's error merge policy no increment is silently lost.
@Suite struct LostUpdateTests {
    @Test(arguments: StoreKind.all) func aSaveOverAChangedRowThrowsAndARetryCountsBothIncrements(
        _ kind: StoreKind
    ) throws {
        let store = CompatibilityStore(kind)
        let setup = ModelContext(try store.container(PageCounter.self))
        setup.insert(PageCounter(page: "home"))
        try setup.save()

        let instanceA = try store.container(PageCounter.self)
        let instanceB = try store.container(PageCounter.self)
        let contextA = ModelContext(instanceA)
        contextA.mergePolicy = .error
        let contextB = ModelContext(instanceB)
        contextB.mergePolicy = .error

        let counterA = try #require(try contextA.fetch(FetchDescriptor<PageCounter>()).first)
        let counterB = try #require(try contextB.fetch(FetchDescriptor<PageCounter>()).first)
        counterA.views += 1
        counterB.views += 1
        try contextA.save()

        // B read the row before A's save: its save is refused instead of overwriting A's increment.
        var conflicts: [MergeConflict] = []
        do {
            try contextB.save()
        } catch StrataError.mergeConflict(let reported) {
            conflicts = reported
        }
        #expect(conflicts.map(\.entityName) == ["PageCounter"])

        // The retry SwiftData apps write: read again in a fresh context, redo the change, save.
        let retry = ModelContext(instanceB)
        retry.mergePolicy = .error
        let fresh = try #require(try retry.fetch(FetchDescriptor<PageCounter>()).first)
        fresh.views += 1
        try retry.save()

        let check = ModelContext(try store.container(PageCounter.self))
        #expect(try check.fetch(FetchDescriptor<PageCounter>()).first?.views == 2)
    }

    @Test(arguments: StoreKind.all) func aBatchDeleteOfARowChangedElsewhereThrowsUnderTheErrorPolicy(
        _ kind: StoreKind
    ) throws {
        let store = CompatibilityStore(kind)
        let setup = ModelContext(try store.container(PageCounter.self))
        setup.insert(PageCounter(page: "home"))
        try setup.save()

        let contextA = ModelContext(try store.container(PageCounter.self))
        contextA.mergePolicy = .error
        let contextB = ModelContext(try store.container(PageCounter.self))
        let counterA = try #require(try contextA.fetch(FetchDescriptor<PageCounter>()).first)
        #expect(counterA.views == 0)
        // A clears out visited pages; none is visited yet, as far as A has read.
        try contextA.delete(model: PageCounter.self, where: #Predicate { $0.views > 0 })
        // Before A saves, B counts a visit: the row now matches A's batch delete.
        let counterB = try #require(try contextB.fetch(FetchDescriptor<PageCounter>()).first)
        counterB.views += 1
        try contextB.save()

        var conflicts: [MergeConflict] = []
        do {
            try contextA.save()
        } catch StrataError.mergeConflict(let reported) {
            conflicts = reported
        }
        #expect(conflicts.map(\.entityName) == ["PageCounter"])
        #expect(conflicts.first?.isDeletion == true)
        let check = ModelContext(try store.container(PageCounter.self))
        #expect(try check.fetch(FetchDescriptor<PageCounter>()).map(\.views) == [1])
    }
}
