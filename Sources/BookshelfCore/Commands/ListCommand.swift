import Foundation
import Strata

/// The `--sort` option of `list`: by title ascending or descending.
enum TitleSort {
    /// The order `--sort` names, or `nil` for the list's own order.
    ///
    /// - Throws: `CommandError.invalidValue` for anything but `title` or `-title`.
    static func order(_ arguments: Arguments) throws(CommandError) -> SortOrder? {
        switch arguments["--sort"] {
        case nil: nil
        case "title": .forward
        case "-title": .reverse
        case let other?: throw .invalidValue(option: "--sort", value: other, expected: "title or -title")
        }
    }
}

/// Runs `list` for one kind of record: fetch in the requested order, filter by `--where`, print.
enum ListCommand {
    /// The options `list` accepts.
    static let options: Set<String> = ["--where", "--sort"]

    /// Parses `arguments`, fetches with `fetch` (given the `--sort` order) and renders the result.
    ///
    /// - Throws: `CommandError` for bad arguments or a bad `--where`, or the store's `StrataError`.
    static func run<Row: Record>(_ arguments: [String], fetch: (SortOrder?) throws -> [Row]) throws -> String {
        let parsed = try Arguments(arguments, options: options)
        let filter = try parsed["--where"].map { (format) throws(CommandError) in try WhereFilter(format: format) }
        var rows = try fetch(TitleSort.order(parsed))
        if let filter { rows = try filter.apply(rows) }
        return ListOutput.render(rows, json: parsed.has("--json"))
    }
}
