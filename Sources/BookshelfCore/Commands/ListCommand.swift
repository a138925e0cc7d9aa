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

/// The `--where` option of `list`: a Core Data format predicate that the store runs as SQL.
enum WhereClause {
    /// The predicate `--where` holds, or `nil` when it was not given.
    ///
    /// - Throws: `CommandError.invalidWhere` with the parser's message and a caret under the offending spot
    ///   (an unbound `$variable` included).
    static func predicate(_ arguments: Arguments) throws(CommandError) -> FormatPredicate? {
        guard let format = arguments["--where"] else { return nil }
        do {
            return try FormatPredicate.parse(format: format).validated()
        } catch {
            throw .invalidWhere(error.description)
        }
    }
}

/// Runs `list` for one kind of record: fetch with the `--where` predicate in the requested order, print.
enum ListCommand {
    /// The options `list` accepts.
    static let options: Set<String> = ["--where", "--sort"]

    /// Parses `arguments`, fetches with `fetch` (given the `--where` predicate and the `--sort` order) and renders
    /// the result.
    ///
    /// - Throws: `CommandError` for bad arguments, a malformed `--where` (`invalidWhere`) or one the store can't
    ///   run, such as an unknown key (`unsupportedWhere`), or the store's other `StrataError`s.
    static func run<Row: Record>(_ arguments: [String], fetch: (FormatPredicate?, SortOrder?) throws -> [Row]) throws -> String {
        let parsed = try Arguments(arguments, options: options)
        let predicate = try WhereClause.predicate(parsed)
        let rows: [Row]
        do {
            rows = try fetch(predicate, TitleSort.order(parsed))
        } catch StrataError.unsupportedPredicate(let expression, let reason) {
            throw CommandError.unsupportedWhere("\(reason) (in \(expression))")
        }
        return ListOutput.render(rows, json: parsed.has("--json"))
    }
}
