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

    /// Parses `arguments` and returns the listing: fetch with `fetch` (given the shelf, the `--where` predicate and
    /// the `--sort` order) and render the result.
    ///
    /// - Throws: `CommandError` for bad arguments or a malformed `--where` (`invalidWhere`). The listing throws
    ///   `CommandError.unsupportedWhere` for a `--where` the store can't run, such as one naming an unknown key,
    ///   or the store's other errors.
    static func prepare<Row: Record>(
        _ arguments: [String], fetch: @escaping (Shelf, FormatPredicate?, SortOrder?) throws -> [Row]
    ) throws(CommandError) -> (Shelf) throws -> String {
        let parsed = try Arguments(arguments, options: options)
        let predicate = try WhereClause.predicate(parsed)
        let order = try TitleSort.order(parsed)
        return { shelf in
            let rows: [Row]
            do {
                rows = try fetch(shelf, predicate, order)
            } catch let error as SwiftDataError {
                guard case .unsupportedPredicate(let expression, let reason)? = error.underlyingError else {
                    throw error
                }
                throw CommandError.unsupportedWhere("\(reason) (in \(expression))")
            }
            return try ListOutput.render(rows, json: parsed.has("--json"))
        }
    }
}
