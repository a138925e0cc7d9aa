import Foundation
import Strata

/// Which store bookshelf opens: the named default (`bookshelf.store` in SwiftData's default directory), a file
/// given with `--store PATH`, or memory with `--in-memory`.
enum StoreLocation: Equatable {
    case standard
    case file(String)
    case memory

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
                location = .file(arguments[index + 1])
                index += 1
            } else if let path = argument.dropPrefix("--store=") {
                location = .file(path)
            } else {
                remaining.append(argument)
            }
            index += 1
        }
        arguments = remaining
        return location
    }

    /// The configuration SwiftData would use for this location.
    var configuration: ModelConfiguration {
        switch self {
        case .standard: ModelConfiguration("bookshelf")
        case .file(let path): ModelConfiguration("bookshelf", url: URL(fileURLWithPath: path))
        case .memory: ModelConfiguration("bookshelf", isStoredInMemoryOnly: true)
        }
    }

    /// What the status line shows for the store.
    var displayPath: String {
        switch self {
        case .memory: "(in memory)"
        default: configuration.url.path
        }
    }

    /// Opens (creating on first use) the container for this location.
    ///
    /// - Throws: `StrataError` when the file can't be opened, isn't a Strata store or holds other models.
    func openContainer() throws -> ModelContainer {
        try ModelContainer(for: Schema(Self.modelTypes), configurations: [configuration])
    }
}

extension String {
    /// The rest of the string after `prefix`, or `nil` when it doesn't start with it.
    func dropPrefix(_ prefix: String) -> String? {
        hasPrefix(prefix) ? String(dropFirst(prefix.count)) : nil
    }
}
