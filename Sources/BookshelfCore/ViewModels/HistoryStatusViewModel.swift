import Foundation
import Observation
import Strata

/// The status line's history part: how far back the store's persistent history goes and who saved last, refreshed
/// by a `HistoryObserver` whenever a transaction is committed — by this app, a `bookshelf` script, or another
/// bookshelf process on the same store.
@MainActor
@Observable
final class HistoryStatusViewModel {
    /// What the status line shows, for example `history since 2026-12-01 10:32:05 UTC · last save: script`.
    private(set) var summary = "history: none yet"
    /// The author of the newest transaction seen (`app` for the interactive app's own saves), once one is.
    private(set) var lastAuthor: String?

    @ObservationIgnored private let container: ModelContainer
    @ObservationIgnored private var observer: HistoryObserver?

    /// Watches the history of `container`'s store.
    init(container: ModelContainer) {
        self.container = container
        refresh()
        do {
            let observer = try HistoryObserver(modelContainer: container)
            self.observer = observer
            // The stream ends when the observer (owned by this view model) is freed, and with it the task.
            let transactions = observer.transactions
            Task { [weak self] in
                for await transaction in transactions {
                    self?.lastAuthor = transaction.author ?? "app"
                    self?.refresh()
                }
            }
        } catch {
            summary = "history unavailable: \(error)"
        }
    }

    /// Reads the oldest transaction still kept (retention may have deleted older ones) and rewrites `summary`.
    func refresh() {
        var oldestFirst = HistoryDescriptor<DefaultHistoryTransaction>()
        oldestFirst.fetchLimit = 1
        do {
            guard let oldest = try ModelContext(container).fetchHistory(oldestFirst).first else {
                summary = "history: none yet"
                return
            }
            summary =
                "history since \(DayFormat.timestamp(oldest.timestamp))"
                + (lastAuthor.map { " · last save: \($0)" } ?? "")
        } catch {
            summary = "history unreadable: \(error)"
        }
    }
}
