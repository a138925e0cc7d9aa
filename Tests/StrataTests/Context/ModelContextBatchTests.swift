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
