import Foundation
import Strata
import StrataPostgres
import StrataSync
import StrataTestSupport
import Testing

/// A small deterministic random number generator (SplitMix64), so a failing seed fails the same way again.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Every synced model of `SyncConvergenceTests`' schema in one canonical text per row: identity, attributes, and
/// relationships by the identities they point to.
enum SyncedContents {
    static let schema = Schema([SyncNote.self, SyncShelf.self, SyncBook.self, SyncArticle.self, SyncTag.self])

    static func rows(of container: ModelContainer) throws -> [String] {
        let context = ModelContext(container)
        var rows: [String] = []
        rows += try context.fetch(FetchDescriptor<SyncNote>()).map {
            "note \($0.id) \($0.title) \($0.count) \($0.detail ?? "-")"
        }
        rows += try context.fetch(FetchDescriptor<SyncShelf>()).map {
            "shelf \($0.id) \($0.name) [\($0.books.map(\.id.uuidString).sorted().joined(separator: ","))]"
        }
        rows += try context.fetch(FetchDescriptor<SyncBook>()).map {
            "book \($0.id) \($0.title) on \($0.shelf?.id.uuidString ?? "-")"
        }
        rows += try context.fetch(FetchDescriptor<SyncArticle>()).map {
            "article \($0.id) \($0.title) [\($0.tags.map(\.id.uuidString).sorted().joined(separator: ","))]"
        }
        rows += try context.fetch(FetchDescriptor<SyncTag>()).map {
            "tag \($0.id) \($0.name) [\($0.articles.map(\.id.uuidString).sorted().joined(separator: ","))]"
        }
        return rows.sorted()
    }
}

/// Random work of one device while offline: inserts, attribute changes, deletes, moves of to-one relationships
/// and changes to sets of links, each save a few of them.
struct OfflineWork {
    var random: SeededGenerator
    var serial = 0

    mutating func run(on container: ModelContainer, saves: Int) throws {
        let context = ModelContext(container)
        for _ in 0..<saves {
            for _ in 0..<Int.random(in: 1...4, using: &random) { try step(in: context) }
            try context.save()
        }
    }

    private mutating func name(_ prefix: String) -> String {
        serial += 1
        return "\(prefix)\(serial)"
    }

    private mutating func pick<T>(_ models: [T]) -> T? {
        models.isEmpty ? nil : models[Int.random(in: 0..<models.count, using: &random)]
    }

    private mutating func step(in context: ModelContext) throws {
        let notes = try context.fetch(FetchDescriptor<SyncNote>())
        let shelves = try context.fetch(FetchDescriptor<SyncShelf>())
        let books = try context.fetch(FetchDescriptor<SyncBook>())
        let articles = try context.fetch(FetchDescriptor<SyncArticle>())
        let tags = try context.fetch(FetchDescriptor<SyncTag>())
        switch Int.random(in: 0..<14, using: &random) {
        case 0: context.insert(SyncNote(title: name("n"), count: Int.random(in: 0...9, using: &random)))
        case 1: pick(notes)?.count = Int.random(in: 0...99, using: &random)
        case 2: pick(notes)?.detail = Bool.random(using: &random) ? name("d") : nil
        case 3: if let note = pick(notes) { context.delete(note) }
        case 4: context.insert(SyncShelf(name: name("s")))
        case 5: context.insert(SyncBook(title: name("b"), shelf: pick(shelves)))
        case 6: pick(books)?.shelf = Bool.random(using: &random) ? pick(shelves) : nil
        case 7: if let shelf = pick(shelves) { context.delete(shelf) }
        case 8: if let book = pick(books) { context.delete(book) }
        case 9: context.insert(SyncArticle(title: name("a")))
        case 10: context.insert(SyncTag(name: name("t")))
        case 11:
            if let article = pick(articles), let tag = pick(tags), !article.tags.contains(where: { $0 === tag }) {
                article.tags.append(tag)
            }
        case 12:
            if let article = pick(articles), let tag = pick(article.tags) {
                article.tags.removeAll { $0 === tag }
            }
        default:
            if Bool.random(using: &random) {
                if let tag = pick(tags) { context.delete(tag) }
            } else if let article = pick(articles) {
                context.delete(article)
            }
        }
    }
}

@Suite(
    "StrataSync: devices working offline in random ways converge with the hub",
    .needsPostgreSQL)
struct SyncConvergenceTests {
    @Test(arguments: Array(UInt64(1)...8))
    func threeDevicesWorkingOfflineAndSyncingInRandomOrdersConverge(seed: UInt64) async throws {
        let scenario = try SyncScenario()
        var random = SeededGenerator(seed: seed)
        let devices = try (0..<3).map { try scenario.device("device\($0)", SyncedContents.schema) }
        let engines = try devices.map { try scenario.engine($0) }
        var work = (0..<3).map { OfflineWork(random: SeededGenerator(seed: seed &* 31 &+ UInt64($0))) }

        for _ in 0..<8 {
            for index in devices.indices {
                try work[index].run(on: devices[index], saves: Int.random(in: 0...2, using: &random))
            }
            // Each device sends or fetches, or both, or neither, in a random order.
            for index in devices.indices.shuffled(using: &random) {
                switch Int.random(in: 0..<4, using: &random) {
                case 0: try await engines[index].sendChanges()
                case 1: try await engines[index].fetchChanges()
                case 2:
                    try await engines[index].fetchChanges()
                    try await engines[index].sendChanges()
                default: break
                }
            }
        }
        // Everyone sends, then everyone fetches: every change has reached every replica.
        for engine in engines { try await engine.sendChanges() }
        for engine in engines { try await engine.fetchChanges() }

        let hub = try SyncedContents.rows(of: scenario.server(SyncedContents.schema))
        #expect(!hub.isEmpty)
        for (index, device) in devices.enumerated() {
            let rows = try SyncedContents.rows(of: device)
            #expect(rows == hub, "device \(index) differs from the hub (seed \(seed))")
            if rows != hub {
                let here = Set(rows)
                let there = Set(hub)
                Issue.record(
                    "only on device \(index): \(here.subtracting(there).sorted())\nonly on the hub: \(there.subtracting(here).sorted())"
                )
            }
        }
    }
}
