import Foundation
import Strata
import Testing
@testable import StrataTestFixtures

@Model final class BatchItem {
    var position: Int
    var label: String
    init(position: Int, label: String) {
        self.position = position
        self.label = label
    }
}

@Suite("Batched fetching")
struct ModelContextBatchTests {
    private func makeContext(_ kind: StoreKind, count: Int) throws -> ModelContext {
        let container = try freshContainer(kind, BatchItem.self)
        let context = ModelContext(container)
        for position in 0..<count { context.insert(BatchItem(position: position, label: "item \(position)")) }
        try context.save()
        return context
    }

    @Test(arguments: StoreKind.all)
    func enumerateVisitsEveryMatchInOrderAcrossBatches(_ kind: StoreKind) throws {
        let context = try makeContext(kind, count: 25)
        var seen: [Int] = []
        let descriptor = FetchDescriptor<BatchItem>(
            predicate: #Predicate { $0.position >= 5 }, sortBy: [SortDescriptor(\.position, order: .reverse)])
        try context.enumerate(descriptor, batchSize: 4) { seen.append($0.position) }
        #expect(seen == Array((5..<25).reversed()))
    }

    /// Stops an enumeration from inside its block.
    private struct Stop: Error {}

    @Test(
        "A sorted enumerate reads its first page with one query, before reading any other key",
        arguments: StoreKind.all)
    func sortedEnumerateReadsTheFirstPageFirst(_ kind: StoreKind) throws {
        let context = try makeContext(kind, count: 25)
        let store = context.container.store as? SQLiteStore
        let before = store?.executedStatementCount
        var seen: [Int] = []
        let descriptor = FetchDescriptor<BatchItem>(
            predicate: #Predicate { $0.position >= 5 }, sortBy: [SortDescriptor(\.position, order: .reverse)])
        #expect(throws: Stop.self) {
            try context.enumerate(descriptor, batchSize: 4) { item in
                seen.append(item.position)
                if seen.count == 4 { throw Stop() }
            }
        }
        #expect(seen == [24, 23, 22, 21])
        if let store, let before { #expect(store.executedStatementCount - before == 1) }
    }

    @Test(
        "A sorted enumerate with a limit and an offset visits each row of its range once, across pages",
        arguments: StoreKind.all)
    func sortedEnumerateHonoursLimitAndOffset(_ kind: StoreKind) throws {
        let context = try makeContext(kind, count: 25)
        for (limit, batchSize) in [(7, 3), (6, 3), (3, 4), (12, 12), (20, 5)] {
            var descriptor = FetchDescriptor<BatchItem>(sortBy: [SortDescriptor(\.position, order: .reverse)])
            descriptor.fetchOffset = 2
            descriptor.fetchLimit = limit
            var seen: [Int] = []
            try context.enumerate(descriptor, batchSize: batchSize) { seen.append($0.position) }
            #expect(seen == Array((0..<23).reversed().prefix(limit)), "limit \(limit), batch size \(batchSize)")
        }
    }

    @Test(
        "Rows a sorted enumerate's block moves into the first page's range are still visited once",
        arguments: StoreKind.all)
    func sortedEnumerateSeesRowsMovedByTheBlock(_ kind: StoreKind) throws {
        let context = try makeContext(kind, count: 12)
        var seen: [String] = []
        let descriptor = FetchDescriptor<BatchItem>(sortBy: [SortDescriptor(\.position)])
        try context.enumerate(descriptor, batchSize: 4) { item in
            seen.append(item.label)
            // While the first page is visited, the last row moves to the front and the first to the end.
            if item.position == 0 {
                let last = try context.fetch(FetchDescriptor<BatchItem>(predicate: #Predicate { $0.position == 11 }))
                last.first?.position = -1
                item.position = 100
                try context.save()
            }
        }
        #expect(seen.count == 12)
        #expect(Set(seen).count == 12)
    }

    @Test(arguments: StoreKind.all)
    func enumerateKeepsChangesMadeInTheBlock(_ kind: StoreKind) throws {
        let context = try makeContext(kind, count: 10)
        try context.enumerate(FetchDescriptor<BatchItem>(), batchSize: 3) { item in
            if item.position.isMultiple(of: 2) { item.label = "even" }
        }
        try context.save()
        let evens = try context.fetchCount(FetchDescriptor<BatchItem>(predicate: #Predicate { $0.label == "even" }))
        #expect(evens == 5)
    }

    @Test("enumerate frees each finished page's unchanged models", arguments: StoreKind.all)
    func enumerateReleasesUnchangedPages(_ kind: StoreKind) throws {
        // A fresh context: the one that inserted the rows keeps them registered, and enumerate keeps those.
        let context = ModelContext(try makeContext(kind, count: 10).container)
        weak var firstSeen: BatchItem?
        try context.enumerate(FetchDescriptor<BatchItem>(), batchSize: 3) { item in
            if item.position == 0 { firstSeen = item }
        }
        #expect(firstSeen == nil)
    }

    @Test(
        "enumerate frees a page's models before the block sees the next page's, in key order and in a sort's order",
        arguments: StoreKind.all)
    func enumerateFreesEachPageBeforeTheNext(_ kind: StoreKind) throws {
        let context = ModelContext(try makeContext(kind, count: 10).container)
        let reversed = FetchDescriptor<BatchItem>(sortBy: [SortDescriptor(\.position, order: .reverse)])
        for descriptor in [FetchDescriptor<BatchItem>(), reversed] {
            var previousPage: [Weak] = []
            var page: [Weak] = []
            var seen: [Int] = []
            try context.enumerate(descriptor, batchSize: 3) { item in
                if page.count == 3 {
                    #expect(page.allSatisfy { $0.item == nil })
                    previousPage = page
                    page = []
                }
                page.append(Weak(item: item))
                seen.append(item.position)
            }
            #expect(previousPage.count == 3)
            #expect(page.allSatisfy { $0.item == nil })
            #expect(seen.sorted() == Array(0..<10))
        }
    }

    struct Weak {
        weak var item: BatchItem?
    }

    @Test(
        "A model the block fetched stays registered, even after the block deleted one of the page and saved",
        arguments: StoreKind.all)
    func enumerateKeepsModelsTheBlockFetched(_ kind: StoreKind) throws {
        let context = ModelContext(try makeContext(kind, count: 10).container)
        var outside: BatchItem?
        try context.enumerate(FetchDescriptor<BatchItem>(predicate: #Predicate { $0.position < 6 }), batchSize: 3) {
            item in
            guard item.position == 0 else { return }
            context.delete(item)
            try context.save()
            outside = try context.fetch(FetchDescriptor<BatchItem>(predicate: #Predicate { $0.position == 8 })).first
        }
        let again = try context.fetch(FetchDescriptor<BatchItem>(predicate: #Predicate { $0.position == 8 })).first
        #expect(outside != nil)
        #expect(again === outside)
        #expect(try context.fetchCount(FetchDescriptor<BatchItem>()) == 9)
    }

    @Test(arguments: StoreKind.all)
    func batchedFetchLoadsOnAccessInOrder(_ kind: StoreKind) throws {
        let context = try makeContext(kind, count: 12)
        let results = try context.fetch(FetchDescriptor<BatchItem>(sortBy: [SortDescriptor(\.position)]), batchSize: 5)
        #expect(results.count == 12)
        #expect(results.map(\.position) == Array(0..<12))
        #expect(results[7] === results[7])
    }

    @Test(
        "A batched fetch read in order reads ahead as far as it has read, while one read out of order loads its batch",
        arguments: StoreKind.all)
    func batchedFetchReadsAheadInOrder(_ kind: StoreKind) throws {
        let context = try makeContext(kind, count: 1_000)
        let descriptor = FetchDescriptor<BatchItem>(sortBy: [SortDescriptor(\.position)])
        let store = context.container.store as? SQLiteStore
        let results = try context.fetch(descriptor, batchSize: 10)
        var before = store?.executedStatementCount
        #expect(results.map(\.position) == Array(0..<1_000))
        // Batches 0 and 1, then 2–3, 4–7, …, 32–63 and the 36 left: 8 queries rather than 100.
        if let store, let before { #expect(store.executedStatementCount - before == 8) }

        let again = try context.fetch(descriptor, batchSize: 10)
        before = store?.executedStatementCount
        // Out of order, each read loads its own batch; the batch right after the last one loaded comes alone too,
        // since only one was read in order.
        #expect([again[500], again[200], again[210], again[45]].map(\.position) == [500, 200, 210, 45])
        #expect(again[201].position == 201)
        if let store, let before { #expect(store.executedStatementCount - before == 4) }
        before = store?.executedStatementCount
        // 0–9, 10–19, then 20–39, which stops before the batch of 45 the collection holds; 50–59 follows no load,
        // so it comes alone.
        #expect((0..<60).map { again[$0].position } == Array(0..<60))
        if let store, let before { #expect(store.executedStatementCount - before == 4) }
    }

    @Test(
        "A batched fetch's first batch keeps the order its keys were read in when another save reorders the rows",
        arguments: StoreKind.all)
    func batchedFetchFirstBatchFollowsItsKeys(_ kind: StoreKind) throws {
        let container = try makeContext(kind, count: 9).container
        let context = ModelContext(container)
        let results = try context.fetch(FetchDescriptor<BatchItem>(sortBy: [SortDescriptor(\.position)]), batchSize: 3)
        let other = ModelContext(container)
        let eighth = FetchDescriptor<BatchItem>(predicate: #Predicate { $0.position == 8 })
        let last = try #require(try other.fetch(eighth).first)
        last.position = -1
        try other.save()
        #expect(results.count == 9)
        #expect(results.prefix(3).map(\.label) == ["item 0", "item 1", "item 2"])
        #expect(results[8].label == "item 8")
    }

    @Test(arguments: StoreKind.all)
    func batchedFetchShowsARowDeletedAfterTheFetchAsDeleted(_ kind: StoreKind) throws {
        let context = try makeContext(kind, count: 6)
        let results = try context.fetch(FetchDescriptor<BatchItem>(sortBy: [SortDescriptor(\.position)]), batchSize: 2)
        let other = ModelContext(context.container)
        try other.delete(model: BatchItem.self, where: #Predicate { $0.position == 5 })
        try other.save()
        #expect(results[5].isDeleted)
        #expect(results[5].label == "")
        #expect(results[4].label == "item 4")
    }
}

enum BatchPriority: Int, Codable {
    case low = 0
    case high = 1
}

@Model final class BatchTicket {
    var title: String
    var tags: [String]
    var priority: BatchPriority
    var attributes: [String: Int]
    init(title: String, tags: [String], priority: BatchPriority, attributes: [String: Int]) {
        self.title = title
        self.tags = tags
        self.priority = priority
        self.attributes = attributes
    }
}

@Suite("Stand-ins for rows deleted after a fetch")
struct VanishedRowTests {
    @Test(arguments: StoreKind.all)
    func aVanishedRowReadsAsEmptyValuesInsteadOfTrapping(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, BatchTicket.self)
        let context = ModelContext(container)
        for index in 0..<4 {
            context.insert(BatchTicket(title: "t\(index)", tags: ["a"], priority: .high, attributes: ["x": index]))
        }
        try context.save()
        let results = try context.fetch(FetchDescriptor<BatchTicket>(sortBy: [SortDescriptor(\.title)]), batchSize: 2)
        let other = ModelContext(container)
        try other.delete(model: BatchTicket.self, where: #Predicate { $0.title == "t3" })
        try other.save()
        let vanished = results[3]
        #expect(vanished.isDeleted)
        #expect(vanished.title == "")
        #expect(vanished.tags == [])
        #expect(vanished.priority == .low)
        #expect(vanished.attributes == [:])
        #expect(results[2].priority == .high)
    }
}
