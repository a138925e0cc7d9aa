import Foundation
import StrataPostgres
import StrataSync

/// `bookshelf sync --hub URL [--hub-schema NAME] [--shelves DIR]`: two shelves, each its own SQLite store, synced
/// through one PostgreSQL hub by StrataSync, step by step: a book added on shelf A arrives on shelf B, both retitle it
/// offline and the conflict is resolved by the default rule, then a delete on B reaches A.
enum SyncCommand {
    /// The PostgreSQL schema that holds the hub's tables unless `--hub-schema` names another.
    static let defaultHubSchema = "bookshelf_sync"

    /// Why `bookshelf sync` stopped; its description is what bookshelf prints.
    enum Failure: Error, CustomStringConvertible {
        /// The hub could not be reached; `hub` is its URL without the password.
        case hubUnreachable(hub: String, reason: String)
        /// The engine refused or failed (another schema on the hub, a damaged state, …).
        case sync(shelf: String, error: SyncError)
        /// A shelf lacks the book the walkthrough expected on it.
        case missingBook(shelf: String)

        var description: String {
            switch self {
            case .hubUnreachable(let hub, let reason):
                "sync: the hub can't be reached: \(reason)\nstart PostgreSQL at \(hub), or pass "
                    + "--hub postgresql://USER@HOST:PORT/DATABASE naming a server that runs"
            case .sync(let shelf, let error): "sync: shelf \(shelf): \(error)"
            case .missingBook(let shelf): "sync: the book is not on shelf \(shelf)"
            }
        }
    }

    /// The hub `arguments` (`--hub`, else `STRATA_POSTGRES_URL` in `environment`) and `--hub-schema` name.
    ///
    /// - Throws: `CommandError.usage` when neither names a hub, `CommandError.invalidValue` for a URL that isn't a
    ///   PostgreSQL connection URI.
    static func hub(_ arguments: Arguments, environment: [String: String]) throws(CommandError) -> PostgresConfiguration
    {
        guard let text = arguments["--hub"] ?? environment["STRATA_POSTGRES_URL"].flatMap({ $0.isEmpty ? nil : $0 })
        else {
            throw .usage(
                "sync needs a PostgreSQL hub: pass --hub postgresql://USER@HOST:PORT/DATABASE "
                    + "(or set STRATA_POSTGRES_URL)")
        }
        guard text.hasPrefix("postgresql://") || text.hasPrefix("postgres://"), let url = URL(string: text),
            url.host() != nil || url.query() != nil
        else { throw .invalidValue(option: "--hub", value: text, expected: "a postgresql:// connection URI") }
        let schema = arguments["--hub-schema"] ?? defaultHubSchema
        return PostgresConfiguration("bookshelf-hub", url: url, databaseSchema: schema)
    }

    /// Checks `arguments` (after `sync`) and runs the walkthrough, handing each line to `output` as it happens.
    ///
    /// - Throws: `CommandError` for a bad command line or no hub; `Failure` when the hub can't be reached or a
    ///   sync fails; the stores' errors.
    @MainActor
    static func run(_ arguments: [String], environment: [String: String], output: (String) -> Void) async throws {
        let parsed = try Arguments(arguments, options: ["--hub", "--hub-schema", "--shelves"], flags: [])
        let hub = try hub(parsed, environment: environment)
        let directory: URL
        if let shelves = parsed["--shelves"] {
            directory = URL(fileURLWithPath: shelves)
        } else {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("bookshelf-sync-\(UUID())")
        }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { if parsed["--shelves"] == nil { try? FileManager.default.removeItem(at: directory) } }
        let shelfA = try SyncedShelf(name: "A", directory: directory, hub: hub)
        let shelfB = try SyncedShelf(name: "B", directory: directory, hub: hub)
        let hubName = "\(hub.redactedURL) (schema \(hub.databaseSchema))"
        output("Two shelves, one hub:")
        output("  shelf A  \(shelfA.storeURL.path)")
        output("  shelf B  \(shelfB.storeURL.path)")
        output("  hub      \(hubName)")
        if parsed["--shelves"] == nil { output("  (the shelves are removed at the end; --shelves DIR keeps them)") }

        func show(_ shelves: SyncedShelf..., id: UUID) throws {
            for shelf in shelves { output("   shelf \(shelf.name): \(try shelf.line(for: id) ?? "(no such book)")") }
        }
        func sync(_ shelf: SyncedShelf) async throws -> [SyncConflict] {
            do {
                return try await shelf.sync()
            } catch let error as SyncError {
                if case .hubUnavailable(_, let reason) = error {
                    throw Failure.hubUnreachable(hub: hubName, reason: reason)
                }
                throw Failure.sync(shelf: shelf.name, error: error)
            }
        }

        let id = try shelfA.add(title: "Dune", author: "Frank Herbert", publisher: "Chilton")
        _ = try await sync(shelfA)
        output("1. Shelf A adds a book and syncs: the book is on the hub.")
        try show(shelfA, id: id)

        _ = try await sync(shelfB)
        guard try shelfB.line(for: id) != nil else { throw Failure.missingBook(shelf: shelfB.name) }
        output("2. Shelf B syncs: the book arrives.")
        try show(shelfB, id: id)

        try shelfA.retitle(id, to: "Dune (first edition)")
        try shelfB.retitle(id, to: "Dune (paperback)")
        output("3. Offline (neither shelf syncs), each gives the book another title.")
        try show(shelfA, shelfB, id: id)

        _ = try await sync(shelfA)
        output("4. Shelf A syncs first: the hub has its title.")
        let conflicts = try await sync(shelfB)
        output("5. Shelf B syncs: its title meets shelf A's on the hub.")
        for conflict in conflicts { output("   " + describe(conflict, on: shelfB.name)) }
        _ = try await sync(shelfA)
        output("6. Shelf A syncs again.")
        try show(shelfA, shelfB, id: id)
        let lines = [try shelfA.line(for: id), try shelfB.line(for: id)]
        output(lines[0] == lines[1] ? "   The shelves agree." : "   The shelves differ.")

        try shelfB.remove(id)
        _ = try await sync(shelfB)
        _ = try await sync(shelfA)
        output("7. Shelf B deletes the book and syncs; shelf A syncs and the book is gone there too.")
        try show(shelfA, shelfB, id: id)
    }

    /// One line saying how `conflict`, met by shelf `shelf`, was resolved by the default rule.
    static func describe(_ conflict: SyncConflict, on shelf: String) -> String {
        let kept = conflict.defaultResolution == .keepLocal ? "shelf \(shelf)'s" : "the hub's"
        switch conflict.kind {
        case .bothChanged(let properties):
            return "Conflict: \(properties.joined(separator: ", ")) changed on shelf \(shelf) and on the hub. "
                + "The default rule keeps \(kept): the last change of a property to reach the hub wins."
        case .changedHereDeletedOnHub(let properties):
            return "Conflict: \(properties.joined(separator: ", ")) changed on shelf \(shelf), the book deleted on "
                + "the hub. The default rule keeps \(kept): a delete wins over a concurrent change."
        case .deletedHereChangedOnHub(let properties):
            return "Conflict: the book deleted on shelf \(shelf), \(properties.joined(separator: ", ")) changed on "
                + "the hub. The default rule keeps \(kept): a delete wins over a concurrent change."
        }
    }
}
