import Foundation
import Strata
import StrataPostgres
import StrataSync

/// `sync-worker`: one device's session. Opens the device's store and its engine from the kept state, then for
/// `rounds` rounds works offline (random inserts, changes, deletes, moves and links, a few saves) and sends,
/// fetches, or both, in a random order; the state is kept after each send and fetch, as an app keeps it. With
/// `--final send` or `--final fetch` it only sends or only fetches. The coordinator may kill it at any moment.
struct SyncWorker {
    let url: URL
    let databaseSchema: String
    let storePath: String
    let statePath: String
    let seed: UInt64
    let rounds: Int
    let final: String?

    func run() async throws {
        let container = try ModelContainer(
            for: SyncedModels.schema, configurations: ModelConfiguration(url: URL(fileURLWithPath: storePath)))
        let kept = FileManager.default.contents(atPath: statePath).flatMap {
            try? JSONDecoder().decode(SyncEngine.State.Serialization.self, from: $0)
        }
        var configuration = SyncEngine.Configuration(
            container: container, hub: PostgresConfiguration(url: url, databaseSchema: databaseSchema),
            stateSerialization: kept)
        configuration.automaticallySync = false
        let engine = try SyncEngine(configuration)
        switch final {
        case "send":
            try await engine.sendChanges()
            try await keep(engine)
            return
        case "fetch":
            try await engine.fetchChanges()
            try await keep(engine)
            return
        default: break
        }
        var random = SplitMix(seed: seed)
        var work = SyncedWork(random: SplitMix(seed: seed ^ 0x5EED), prefix: "w\(seed % 1000)-")
        for _ in 0..<rounds {
            try work.run(on: container, saves: 1 + random.below(2))
            do {
                switch random.below(3) {
                case 0: try await engine.sendChanges()
                case 1: try await engine.fetchChanges()
                default:
                    try await engine.fetchChanges()
                    try await engine.sendChanges()
                }
                try await keep(engine)
            } catch let error as SyncError {
                // A cut connection: the device keeps working offline, as an app would.
                if case .hubUnavailable = error { continue }
                throw error
            }
        }
    }

    /// Writes the engine's state where the next session reads it (replaced whole, so a kill leaves the old or the
    /// new one).
    private func keep(_ engine: SyncEngine) async throws {
        let data = try JSONEncoder().encode(await engine.state.serialization)
        try data.write(to: URL(fileURLWithPath: statePath), options: .atomic)
    }
}

/// Random work of one device while offline.
struct SyncedWork {
    var random: SplitMix
    let prefix: String
    var serial = 0

    mutating func run(on container: ModelContainer, saves: Int) throws {
        let context = ModelContext(container)
        for _ in 0..<saves {
            for _ in 0..<(1 + random.below(4)) { try step(in: context) }
            try context.save()
        }
    }

    private mutating func name() -> String {
        serial += 1
        return "\(prefix)\(serial)"
    }

    private mutating func pick<T>(_ models: [T]) -> T? {
        models.isEmpty ? nil : models[random.below(models.count)]
    }

    private mutating func step(in context: ModelContext) throws {
        let notes = try context.fetch(FetchDescriptor<SyncedNote>())
        let shelves = try context.fetch(FetchDescriptor<SyncedShelf>())
        let books = try context.fetch(FetchDescriptor<SyncedBook>())
        let articles = try context.fetch(FetchDescriptor<SyncedArticle>())
        let tags = try context.fetch(FetchDescriptor<SyncedTag>())
        switch random.below(14) {
        case 0: context.insert(SyncedNote(title: name(), count: random.below(10)))
        case 1: pick(notes)?.count = random.below(100)
        case 2: pick(notes)?.detail = random.chance(50) ? name() : nil
        case 3: if let note = pick(notes) { context.delete(note) }
        case 4: context.insert(SyncedShelf(name: name()))
        case 5: context.insert(SyncedBook(title: name(), shelf: pick(shelves)))
        case 6: pick(books)?.shelf = random.chance(50) ? pick(shelves) : nil
        case 7: if let shelf = pick(shelves) { context.delete(shelf) }
        case 8: if let book = pick(books) { context.delete(book) }
        case 9: context.insert(SyncedArticle(title: name()))
        case 10: context.insert(SyncedTag(name: name()))
        case 11:
            if let article = pick(articles), let tag = pick(tags), !article.tags.contains(where: { $0 === tag }) {
                article.tags.append(tag)
            }
        case 12:
            if let article = pick(articles), let tag = pick(article.tags) { article.tags.removeAll { $0 === tag } }
        default:
            if random.chance(50) {
                if let tag = pick(tags) { context.delete(tag) }
            } else if let article = pick(articles) {
                context.delete(article)
            }
        }
    }
}
