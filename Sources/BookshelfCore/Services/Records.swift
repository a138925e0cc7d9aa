import Foundation
import Strata

/// A value snapshot of one stored model: what lists show, what live results compare and what `--json` prints.
///
/// Snapshots are plain values, so a list can keep the previous fetch and compare it with the next one (the
/// fingerprint that tells which rows changed) without holding models of a context that may be gone.
protocol Record: Identifiable, Equatable, Encodable, Sendable where ID == PersistentIdentifier {
    /// The stored model's identifier.
    var id: PersistentIdentifier { get }
    /// One line of plain-text output for `list`.
    var plainLine: String { get }
}

/// A snapshot of a `Book`.
struct BookRecord: Record {
    let id: PersistentIdentifier
    let title: String
    let author: String
    let publisher: String
    let summary: String

    init(_ book: Book) {
        id = book.persistentModelID
        title = book.title
        author = book.author
        publisher = book.publisher
        summary = book.summary
    }

    var plainLine: String { "\(title) — \(author) (\(publisher))" }

    private enum CodingKeys: String, CodingKey { case title, author, publisher, summary }
}

/// A snapshot of a `TaskItem`.
struct TaskRecord: Record {
    let id: PersistentIdentifier
    let title: String
    let category: String
    let priority: Int
    let dueDate: Date
    let isCompleted: Bool

    init(_ task: TaskItem) {
        id = task.persistentModelID
        title = task.title
        category = task.category
        priority = task.priority
        dueDate = task.dueDate
        isCompleted = task.isCompleted
    }

    var plainLine: String {
        let mark = isCompleted ? "[x]" : "[ ]"
        let category = category.isEmpty ? "" : " #\(category)"
        return "\(mark) \(title)\(category) — due \(DayFormat.string(dueDate)), priority \(priority)"
    }

    private enum CodingKeys: String, CodingKey { case title, category, priority, dueDate, isCompleted }
}

/// A snapshot of a `JournalEntry`.
struct JournalRecord: Record {
    let id: PersistentIdentifier
    let title: String
    let content: String
    let date: Date

    init(_ entry: JournalEntry) {
        id = entry.persistentModelID
        title = entry.title
        content = entry.content
        date = entry.date
    }

    var plainLine: String { "\(DayFormat.string(date)) \(title): \(content.replacingOccurrences(of: "\n", with: " "))" }

    private enum CodingKeys: String, CodingKey { case title, content, date }
}

/// A snapshot of a `TodoItem`.
struct TodoRecord: Record {
    let id: PersistentIdentifier
    let title: String
    let isComplete: Bool

    init(_ item: TodoItem) {
        id = item.persistentModelID
        title = item.title
        isComplete = item.isComplete
    }

    var plainLine: String { "\(isComplete ? "[x]" : "[ ]") \(title)" }

    private enum CodingKeys: String, CodingKey { case title, isComplete }
}
