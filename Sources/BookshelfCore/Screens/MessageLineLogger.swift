import Foundation
import StrataState

/// Shows StrataState's error entries (a `ModelState` that failed to fetch or save) on the message line, instead
/// of letting the default logger write over the full-screen app.
struct MessageLineLogger: ApplicationLogger {
    let shelf: ShelfViewModel

    func log(_ entry: Application.LogEntry) {
        guard entry.level == .error else { return }
        // StrataState calls loggers synchronously on the main actor.
        MainActor.assumeIsolated { shelf.message = "Error: \(entry.message)" }
    }
}
