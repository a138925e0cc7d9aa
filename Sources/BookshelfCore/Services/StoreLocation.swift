import Foundation
import Strata
import StrataPostgres

/// Which store bookshelf opens: the named default (`bookshelf.store` in SwiftData's default directory), a file
/// given with `--store PATH`, a PostgreSQL database given with `--store postgresql://…` (its tables in the
/// `bookshelf` schema), or memory with `--in-memory`.
enum StoreLocation: Equatable {
    case standard
    case file(String)
    case postgres(URL)
    case memory

    /// The PostgreSQL schema (namespace) that holds bookshelf's tables in a PostgreSQL database.
    static let databaseSchema = "bookshelf"

    /// Every model class bookshelf stores; one schema so all four lists share one store file.
    static var modelTypes: [any PersistentModel.Type] { [Book.self, TaskItem.self, JournalEntry.self, TodoItem.self] }

    /// Removes `--store PATH` and `--in-memory` from `arguments` and returns the location they name.
    ///
    /// - Throws: `CommandError.missingValue` when `--store` has no path after it.
    static func extract(from arguments: inout [String]) throws(CommandError) -> StoreLocation {
        var location = StoreLocation.standard
        var remaining: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--in-memory" {
                location = .memory
            } else if argument == "--store" {
                guard index + 1 < arguments.count else { throw .missingValue("--store") }
                location = try StoreLocation(argument: arguments[index + 1])
                index += 1
            } else if let path = argument.dropPrefix("--store=") {
                location = try StoreLocation(argument: path)
            } else {
                remaining.append(argument)
            }
            index += 1
        }
        arguments = remaining
        return location
    }

    /// The location `--store` names: a PostgreSQL database for a `postgresql://` or `postgres://` URI, otherwise a
    /// file path.
    ///
    /// - Throws: `CommandError.invalidValue` for a PostgreSQL URI that isn't a valid URL.
    init(argument: String) throws(CommandError) {
        guard argument.hasPrefix("postgresql://") || argument.hasPrefix("postgres://") else {
            self = .file(argument)
            return
        }
        guard let url = URL(string: argument), url.host() != nil || url.query() != nil else {
            throw .invalidValue(option: "--store", value: "postgresql://…", expected: "a libpq connection URI")
        }
        self = .postgres(url)
    }

    /// The configuration SwiftData would use for this location.
    var configuration: any DataStoreConfiguration {
        switch self {
        case .standard: ModelConfiguration("bookshelf")
        case .file(let path): ModelConfiguration("bookshelf", url: URL(fileURLWithPath: path))
        case .postgres(let url): PostgresConfiguration("bookshelf", url: url, databaseSchema: Self.databaseSchema)
        case .memory: ModelConfiguration("bookshelf", isStoredInMemoryOnly: true)
        }
    }

    /// What the status line shows for the store: the file's path, or the database's URI without its password.
    var displayPath: String {
        switch configuration {
        case let configuration as PostgresConfiguration: "\(configuration.redactedURL) (schema \(Self.databaseSchema))"
        case let configuration as ModelConfiguration where !configuration.isStoredInMemoryOnly: configuration.url.path
        default: "(in memory)"
        }
    }

    /// Opens (creating on first use) the container for this location.
    ///
    /// - Throws: `StrataError` when the store can't be opened (the file isn't a Strata store, the server can't be
    ///   reached) or holds other models.
    func openContainer() throws -> ModelContainer {
        try ModelContainer(for: Schema(Self.modelTypes), migrationPlan: nil, configurations: [configuration])
    }
}

extension String {
    /// The rest of the string after `prefix`, or `nil` when it doesn't start with it.
    func dropPrefix(_ prefix: String) -> String? {
        hasPrefix(prefix) ? String(dropFirst(prefix.count)) : nil
    }
}
