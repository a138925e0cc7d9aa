import Foundation
import Strata
import StrataPostgres
import StrataSync
import Synchronization

/// One shelf of `bookshelf sync`: a SQLite store of shared books, the engine that syncs it with the hub, and the
/// engine's state, kept in a file beside the store as an app keeps it with its data.
@MainActor
final class SyncedShelf {
    /// The shelf's name on screen (`A`, `B`).
    let name: String
    /// The shelf's store file.
    let storeURL: URL
    /// The container of the shelf's store.
    let container: ModelContainer
    /// The engine syncing the store with the hub; it syncs when told to, so the demo decides when a shelf is online.
    let engine: SyncEngine
    /// Where the engine's state serialization is kept between runs.
    private let stateURL: URL
    /// The conflicts the engine's resolver was asked about since the last sync.
    private let conflicts: ConflictLog

    /// Opens (creating on first use) the shelf `name`'s store in `directory`, and its engine with the state it
    /// saved last time.
    ///
    /// - Throws: the store's `StrataError`, `SyncError` when the engine can't start (the state belongs to another
    ///   store), or a decoding error for a damaged state file.
    init(name: String, directory: URL, hub: PostgresConfiguration) throws {
        self.name = name
        storeURL = directory.appendingPathComponent("shelf-\(name.lowercased()).store")
        stateURL = directory.appendingPathComponent("shelf-\(name.lowercased()).sync-state.json")
        container = try ModelContainer(
            for: SharedBook.self, configurations: ModelConfiguration("shelf-\(name.lowercased())", url: storeURL))
        let saved: SyncEngine.State.Serialization? =
            FileManager.default.fileExists(atPath: stateURL.path)
            ? try JSONDecoder().decode(SyncEngine.State.Serialization.self, from: Data(contentsOf: stateURL)) : nil
        let conflicts = ConflictLog()
        self.conflicts = conflicts
        var configuration = SyncEngine.Configuration(
            container: container, hub: hub, stateSerialization: saved,
            conflictResolver: { conflict in
                // The demo shows each conflict and keeps what the engine keeps by default.
                conflicts.append(conflict)
                return conflict.defaultResolution
            })
        configuration.automaticallySync = false
        engine = try SyncEngine(configuration)
    }

    /// Sends the shelf's pending changes, then fetches the hub's, and keeps the engine's state.
    ///
    /// - Returns: the conflicts the engine met, each once.
    /// - Throws: `SyncError` (the hub unreachable, the schemas differ, …); the changes not sent stay pending.
    @discardableResult
    func sync() async throws -> [SyncConflict] {
        try await engine.sendChanges()
        try await engine.fetchChanges()
        try await keepState()
        return conflicts.drain()
    }

    /// Writes the engine's state beside the store, for the next run.
    private func keepState() async throws {
        let serialization = await engine.state.serialization
        try JSONEncoder().encode(serialization).write(to: stateURL, options: .atomic)
    }

    /// Adds a book and saves it.
    ///
    /// - Returns: the book's sync identity.
    /// - Throws: the errors of `save()`.
    func add(title: String, author: String, publisher: String) throws -> UUID {
        let context = ModelContext(container)
        let book = SharedBook(title: title, author: author, publisher: publisher)
        context.insert(book)
        try context.save()
        return book.id
    }

    /// Gives the book with sync identity `id` a new title and saves it.
    ///
    /// - Throws: `CommandError.usage` when the shelf has no such book, or the errors of `save()`.
    func retitle(_ id: UUID, to title: String) throws {
        let context = ModelContext(container)
        guard let book = try context.fetch(FetchDescriptor<SharedBook>(predicate: #Predicate { $0.id == id })).first
        else { throw SyncCommand.Failure.missingBook(shelf: name) }
        book.title = title
        try context.save()
    }

    /// Deletes the book with sync identity `id`, if the shelf holds it, and saves.
    ///
    /// - Throws: the errors of `fetch(_:)` and `save()`.
    func remove(_ id: UUID) throws {
        let context = ModelContext(container)
        for book in try context.fetch(FetchDescriptor<SharedBook>(predicate: #Predicate { $0.id == id })) {
            context.delete(book)
        }
        try context.save()
    }

    /// The book with sync identity `id` as one line (`Title — Author (Publisher)`), or `nil` when the shelf
    /// doesn't hold it.
    ///
    /// - Throws: the errors of `fetch(_:)`.
    func line(for id: UUID) throws -> String? {
        let context = ModelContext(container)
        return try context.fetch(FetchDescriptor<SharedBook>(predicate: #Predicate { $0.id == id })).first.map {
            "\($0.title) — \($0.author) (\($0.publisher))"
        }
    }
}

/// The conflicts a sync engine's resolver was asked about, collected from the engine's actor.
final class ConflictLog: Sendable {
    private let conflicts = Mutex<[SyncConflict]>([])

    /// Notes `conflict`.
    func append(_ conflict: SyncConflict) {
        conflicts.withLock { $0.append(conflict) }
    }

    /// The conflicts noted since the last call, each once, in the order first met.
    func drain() -> [SyncConflict] {
        let noted = conflicts.withLock { noted in
            defer { noted = [] }
            return noted
        }
        var seen = Set<SyncConflict>()
        return noted.filter { seen.insert($0).inserted }
    }
}
