import Foundation
import Strata

/// The books, tasks, journal entries and to-dos an in-memory store starts with, so that `--in-memory` shows
/// something to list, search and edit.
enum SampleShelf {
    /// How many models of each kind `fill(_:)` inserted.
    struct Counts: Equatable, Sendable {
        let books: Int
        let tasks: Int
        let journalEntries: Int
        let todos: Int
    }

    /// The author stamped on the history of the sample data's save.
    static let author = "sample data"

    /// Inserts the sample data into `container` and saves it, in one transaction.
    ///
    /// - Returns: how many models of each kind were inserted.
    /// - Throws: the errors of `ModelContext.save()`.
    static func fill(_ container: ModelContainer) throws -> Counts {
        let context = ModelContext(container)
        context.author = author
        let books = [
            Book(
                title: "Dune", author: "Frank Herbert", publisher: "Chilton",
                summary: "A desert planet, its spice, and the family sent to rule it."),
            Book(
                title: "Kindred", author: "Octavia E. Butler", publisher: "Doubleday",
                summary: "A writer is pulled back in time to a Maryland plantation."),
            Book(title: "Ficciones", author: "Jorge Luis Borges", publisher: "Sur"),
            Book(title: "The Left Hand of Darkness", author: "Ursula K. Le Guin", publisher: "Ace Books"),
        ]
        let today = Calendar(identifier: .gregorian).startOfDay(for: .now)
        func day(_ offset: Int) -> Date { today.addingTimeInterval(Double(offset) * 86_400) }
        let tasks = [
            TaskItem(title: "Return library books", category: "errands", priority: 2, dueDate: day(1)),
            TaskItem(title: "File taxes", category: "home", priority: 3, dueDate: day(10)),
            TaskItem(title: "Water the plants", category: "home", priority: 1, dueDate: day(0)),
            TaskItem(title: "Book club notes", category: "reading", priority: 1, dueDate: day(3)),
        ]
        let entries = [
            JournalEntry(title: "Started Dune", content: "The first chapter is all politics and sand.", date: day(-2)),
            JournalEntry(title: "Rainy Sunday", content: "Read Ficciones by the window.", date: day(-1)),
            JournalEntry(title: "Book club", content: "We picked Kindred for next month.", date: day(0)),
        ]
        let todos = [
            TodoItem(title: "Buy bookmarks"), TodoItem(title: "Call the library", isComplete: true),
            TodoItem(title: "Lend Dune to Sam"),
        ]
        for book in books { context.insert(book) }
        for task in tasks { context.insert(task) }
        for entry in entries { context.insert(entry) }
        for todo in todos { context.insert(todo) }
        try context.save()
        return Counts(books: books.count, tasks: tasks.count, journalEntries: entries.count, todos: todos.count)
    }

    /// What bookshelf says when it opens an in-memory store filled with `counts`.
    static func startNote(_ counts: Counts) -> String {
        "in memory: started with sample data (\(counts.books) books, \(counts.tasks) tasks, "
            + "\(counts.journalEntries) journal entries, \(counts.todos) to-dos)."
    }
}
