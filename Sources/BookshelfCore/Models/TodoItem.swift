import Foundation
import Strata

/// A to-do from seed 001, read and written through `@ModelState`.
@Model
final class TodoItem {
    var title: String
    var isComplete: Bool

    init(title: String, isComplete: Bool = false) {
        self.title = title
        self.isComplete = isComplete
    }
}
