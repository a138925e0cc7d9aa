import Foundation
import Strata

/// The scripting subcommands: `books|tasks|journal add …` and `books|tasks|journal list …`.
enum ScriptCommand {
    static let usage = """
        usage: bookshelf [--store PATH | --in-memory]                 full-screen app
               bookshelf [--store PATH] books add --title T --author A --publisher P [--summary S] [--json]
               bookshelf [--store PATH] tasks add --title T [--category C] [--priority N] [--due YYYY-MM-DD] [--json]
               bookshelf [--store PATH] journal add --title T [--content C] [--date YYYY-MM-DD] [--json]
               bookshelf [--store PATH] books|tasks|journal list [--where 'FORMAT'] [--sort title|-title] [--json]
               bookshelf [--store PATH] store migrate [--dry-run]
               bookshelf --help | --version
        """

    /// Runs `arguments` (without the store options) against `shelf` and returns what to print.
    ///
    /// - Throws: `CommandError` for bad arguments, or the store's `StrataError`.
    static func run(_ arguments: [String], shelf: Shelf) throws -> String {
        try prepare(arguments)(shelf)
    }

    /// Checks `arguments` (without the store options) completely and returns the command, to run against a shelf
    /// once the store is open: a mistyped command line is refused before any store is created or opened.
    ///
    /// - Throws: `CommandError` for an unknown subcommand or option, a missing field or a malformed value or
    ///   `--where`.
    static func prepare(_ arguments: [String]) throws(CommandError) -> (Shelf) throws -> String {
        guard arguments.count >= 2 else { throw CommandError.usage(usage) }
        let rest = Array(arguments.dropFirst(2))
        switch (arguments[0], arguments[1]) {
        case ("books", "add"): return try addBook(rest)
        case ("tasks", "add"): return try addTask(rest)
        case ("journal", "add"): return try addEntry(rest)
        case ("books", "list"):
            return try ListCommand.prepare(rest) { shelf, predicate, order in
                try shelf.records(
                    descriptor(predicate, sortBy: [SortDescriptor<Book>(\.title, order: order ?? .forward)]),
                    BookRecord.init)
            }
        case ("tasks", "list"):
            return try ListCommand.prepare(rest) { shelf, predicate, order in
                let sort =
                    order.map { [SortDescriptor<TaskItem>(\.title, order: $0)] }
                    ?? [SortDescriptor(\.dueDate), SortDescriptor(\.priority, order: .reverse)]
                return try shelf.records(descriptor(predicate, sortBy: sort), TaskRecord.init)
            }
        case ("journal", "list"):
            return try ListCommand.prepare(rest) { shelf, predicate, order in
                let sort =
                    order.map { [SortDescriptor<JournalEntry>(\.title, order: $0)] }
                    ?? [SortDescriptor(\.date, order: .reverse)]
                return try shelf.records(descriptor(predicate, sortBy: sort), JournalRecord.init)
            }
        default:
            throw CommandError.usage(usage)
        }
    }

    /// A fetch of every `Model` matching `predicate` (all of them for `nil`), ordered by `sortBy`.
    private static func descriptor<Model>(
        _ predicate: FormatPredicate?, sortBy: [SortDescriptor<Model>]
    ) -> FetchDescriptor<Model> {
        var descriptor = FetchDescriptor<Model>(sortBy: sortBy)
        descriptor.formatPredicate = predicate
        return descriptor
    }

    private static func addBook(_ arguments: [String]) throws(CommandError) -> (Shelf) throws -> String {
        let parsed = try Arguments(arguments, options: ["--title", "--author", "--publisher", "--summary"])
        let draft = BookDraft(
            title: parsed["--title"] ?? "", author: parsed["--author"] ?? "",
            publisher: parsed["--publisher"] ?? "", summary: parsed["--summary"] ?? "")
        if let missing = draft.missingField { throw .missingField(missing) }
        return { shelf in ListOutput.renderAdded(try shelf.addBook(draft), json: parsed.has("--json")) }
    }

    private static func addTask(_ arguments: [String]) throws(CommandError) -> (Shelf) throws -> String {
        let parsed = try Arguments(arguments, options: ["--title", "--category", "--priority", "--due"])
        let title = try parsed.required("--title", field: "title")
        let priority = try parsed.integer("--priority", default: 0)
        let dueDate = try parsed.day("--due", default: .now)
        return { shelf in
            let task = TaskItem(
                title: title, category: parsed["--category"] ?? "", priority: priority, dueDate: dueDate)
            try shelf.insert(task)
            return ListOutput.renderAdded(TaskRecord(task), json: parsed.has("--json"))
        }
    }

    private static func addEntry(_ arguments: [String]) throws(CommandError) -> (Shelf) throws -> String {
        let parsed = try Arguments(arguments, options: ["--title", "--content", "--date"])
        let title = try parsed.required("--title", field: "title")
        let date = try parsed.day("--date", default: .now)
        return { shelf in
            let entry = JournalEntry(title: title, content: parsed["--content"] ?? "", date: date)
            try shelf.insert(entry)
            return ListOutput.renderAdded(JournalRecord(entry), json: parsed.has("--json"))
        }
    }
}
