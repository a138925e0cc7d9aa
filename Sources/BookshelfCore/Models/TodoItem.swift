import Foundation
import Strata

/// A to-do of AppState's `ModelState` example, read and written through `@ModelState`.
@Model
final class TodoItem {
    var title: String
    var isComplete: Bool

    init(title: String, isComplete: Bool = false) {
        self.title = title
        self.isComplete = isComplete
    }
}
