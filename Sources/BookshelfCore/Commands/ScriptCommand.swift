import Foundation
import Strata

/// The scripting subcommands: `books|tasks|journal add …` and `books|tasks|journal list …`.
enum ScriptCommand {
    /// What `bookshelf --help` prints: every command, the store options and where the default store is.
    static var usage: String {
        """
        usage: bookshelf [STORE]                    the full-screen app (press ? in it for the keys)
               bookshelf [STORE] COMMAND [OPTIONS]

        Commands:
          books add --title T --author A --publisher P [--summary S] [--json]
          tasks add --title T [--category C] [--priority N] [--due YYYY-MM-DD] [--json]
          journal add --title T [--content C] [--date YYYY-MM-DD] [--json]
          books|tasks|journal list [--where 'FORMAT'] [--sort title|-title] [--json]
                                    FORMAT is a Core Data predicate: 'title CONTAINS[c] "dune"'
          store migrate [--dry-run]  migrate the store to bookshelf's models (--dry-run: only print the plan)
          sync [--hub URL] [--hub-schema NAME] [--shelves DIR]
                                    two shelves (SQLite stores in DIR, else a temporary directory) synced
                                    through the PostgreSQL hub at URL (default: $STRATA_POSTGRES_URL; tables
                                    in its schema "\(SyncCommand.defaultHubSchema)"), step by step
          --help | --version

        STORE (one of):
          (none)                    the default store: \(StoreLocation.standard.displayPath)
                                    (in $XDG_DATA_HOME when set, else ~/.local/share)
          --store PATH              a store file of your own, created on first use
          --store postgresql://…    a PostgreSQL database (tables in its schema "\(StoreLocation.databaseSchema)")
          --in-memory               a store in memory that starts with sample data; nothing is kept
        """
    }

    /// A checked command line, ready to run against a shelf.
    struct Prepared {
        /// What the command adds to the store (`"book"`, `"task"`, `"journal entry"`), or `nil` for a read.
        let changedRecord: String?
        /// Runs the command against a shelf and returns what to print.
        let body: (Shelf) throws -> String

        /// Runs the command against `shelf` and returns what to print.
        ///
        /// - Throws: `CommandError` for a `--where` the store can't run, or the store's errors.
        func callAsFunction(_ shelf: Shelf) throws -> String { try body(shelf) }
    }

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
    static func prepare(_ arguments: [String]) throws(CommandError) -> Prepared {
        guard arguments.count >= 2 else { throw CommandError.usage(usage) }
        let rest = Array(arguments.dropFirst(2))
        switch (arguments[0], arguments[1]) {
        case ("books", "add"): return Prepared(changedRecord: "book", body: try addBook(rest))
        case ("tasks", "add"): return Prepared(changedRecord: "task", body: try addTask(rest))
        case ("journal", "add"): return Prepared(changedRecord: "journal entry", body: try addEntry(rest))
        case ("books", "list"):
            return try list(rest) { shelf, predicate, order in
                try shelf.records(
                    descriptor(predicate, sortBy: [SortDescriptor<Book>(\.title, order: order ?? .forward)]),
                    BookRecord.init)
            }
        case ("tasks", "list"):
            return try list(rest) { shelf, predicate, order in
                let sort =
                    order.map { [SortDescriptor<TaskItem>(\.title, order: $0)] }
                    ?? [SortDescriptor(\.dueDate), SortDescriptor(\.priority, order: .reverse)]
                return try shelf.records(descriptor(predicate, sortBy: sort), TaskRecord.init)
            }
        case ("journal", "list"):
            return try list(rest) { shelf, predicate, order in
                let sort =
                    order.map { [SortDescriptor<JournalEntry>(\.title, order: $0)] }
                    ?? [SortDescriptor(\.date, order: .reverse)]
                return try shelf.records(descriptor(predicate, sortBy: sort), JournalRecord.init)
            }
        default:
            throw CommandError.usage(usage)
        }
    }

    /// The `list` command over the rows `fetch` reads.
    private static func list<Row: Record>(
        _ arguments: [String], fetch: @escaping (Shelf, FormatPredicate?, SortOrder?) throws -> [Row]
    ) throws(CommandError) -> Prepared {
        Prepared(changedRecord: nil, body: try ListCommand.prepare(arguments, fetch: fetch))
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
        return { shelf in try ListOutput.renderAdded(try shelf.addBook(draft), json: parsed.has("--json")) }
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
            return try ListOutput.renderAdded(TaskRecord(task), json: parsed.has("--json"))
        }
    }

    private static func addEntry(_ arguments: [String]) throws(CommandError) -> (Shelf) throws -> String {
        let parsed = try Arguments(arguments, options: ["--title", "--content", "--date"])
        let title = try parsed.required("--title", field: "title")
        let date = try parsed.day("--date", default: .now)
        return { shelf in
            let entry = JournalEntry(title: title, content: parsed["--content"] ?? "", date: date)
            try shelf.insert(entry)
            return try ListOutput.renderAdded(JournalRecord(entry), json: parsed.has("--json"))
        }
    }
}
