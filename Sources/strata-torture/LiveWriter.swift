import Foundation
import Strata

// The live-results child's models: the same as the test suite's `LiveTask` and `LiveNote` (Tests/StrataTests/Live),
// so both processes open one store.

/// A task, as the live-results tests store it.
@Model
final class LiveTask {
    var title: String
    var priority: Int
    var category: String

    init(title: String, priority: Int, category: String) {
        self.title = title
        self.priority = priority
        self.category = category
    }
}

/// A note, as the live-results tests store it.
@Model
final class LiveNote {
    var text: String

    init(text: String) { self.text = text }
}

/// The live-results child: another process saving into a store a test observes. It inserts one task, saves it
/// as `author`, and exits.
struct LiveWriter {
    let storePath: String
    let title: String
    let priority: Int
    let author: String

    func run() throws {
        let container = try ModelContainer(
            for: LiveTask.self, LiveNote.self, configurations: ModelConfiguration(url: URL(fileURLWithPath: storePath)))
        let context = ModelContext(container)
        context.author = author
        context.insert(LiveTask(title: title, priority: priority, category: "inbox"))
        try context.save()
    }
}
