import Foundation
import Strata
import StrataState

// What the README's code blocks use without declaring it, declared as an app around them would. The blocks
// themselves are in Generated/, made from README.md by Scripts/readme-snippets.py; this target only has to compile.

/// The to-do model of the ModelState block.
@Model final class TodoItem {
    var title: String
    init(title: String) { self.title = title }
}

/// The task model of the format-string block.
@Model final class TaskItem {
    var title = ""
    var content = ""
    var isCompleted = false
    var dueDate = Date.now
    var priority = 0
    var tags: [Tag] = []
    init() {}
}

/// A task's tag.
@Model final class Tag {
    var name = ""
    init() {}
}

/// The trip model of the history block.
@Model final class Trip {
    @Attribute(.preserveValueOnDeletion) var name: String
    init(name: String) { self.name = name }
}

/// The book model of the PostgreSQL block.
@Model final class Book {
    var title: String
    init(title: String) { self.title = title }
}

/// The search text the user typed.
let text = "dune"
/// The store file of the migration block.
let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("readme.store")
/// The app's container.
@MainActor func makeModelContainer() -> ModelContainer {
    try! ModelContainer(for: TodoItem.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
}
/// The app's context.
@MainActor let context = ModelContext(makeModelContainer())
/// The last history token the app processed, and the oldest every reader of the store has, as the app keeps them.
@MainActor var lastToken = savedToken("lastToken")
@MainActor let processedByAll = savedToken("processedByAll")
/// A token the app saved in its settings. (This target is compiled, never run, so a missing one may trap.)
@MainActor func savedToken(_ key: String) -> DefaultHistoryToken {
    try! JSONDecoder().decode(DefaultHistoryToken.self, from: UserDefaults.standard.data(forKey: key) ?? Data())
}
/// What the app does with a changed model.
@MainActor func refresh(_ identifier: PersistentIdentifier) {}
@MainActor func forget(_ name: String?) {}

/// The part of swift-log's `Logger` the logging block calls (swift-log can't be fetched here).
struct Logger {
    enum Level: String { case trace, debug, info, notice, warning, error, critical }
    enum MetadataValue { case string(String) }
    let label: String
    func log(
        level: Level, _ message: @autoclosure () -> String, metadata: [String: MetadataValue]? = nil,
        source: @autoclosure () -> String? = nil
    ) {}
}
