import Foundation
import Observation
import Strata

/// The authors screen: how many books each author has on the shelf, most first, totalled by the store and kept
/// current by an `AggregateObserver` (saves by this app, and by other bookshelf processes on the same file).
@MainActor
@Observable
final class AuthorsViewModel {
    /// One author's line.
    struct Row: Equatable {
        var author: String
        var books: Int
    }

    /// The authors, most books first, ties by name; empty when the totals can't be computed (see `error`).
    private(set) var rows: [Row] = []
    /// Why the totals couldn't be computed, if they couldn't.
    private(set) var error: String?
    @ObservationIgnored private var observer: AggregateObserver<Book, String, Int>?

    /// A view model over `shelf`'s books.
    init(shelf: Shelf) {
        let descriptor = AggregateDescriptor(
            groupBy: \Book.author, aggregates: .count,
            sortBy: [AggregateSortDescriptor(Aggregate<Book, Int>.count, order: .reverse)])
        do {
            let observer = try AggregateObserver(
                aggregateDescriptor: descriptor, modelContext: ModelContext(shelf.container))
            observer.onChange = { [weak self] groups in self?.show(groups) }
            self.observer = observer
            show(observer.results)
        } catch {
            self.error = "Error: \(error)"
        }
    }

    private func show(_ groups: [AggregateResult<String, Int>]) {
        rows = groups.map { Row(author: $0.key, books: $0.value) }
    }
}
