import Foundation
import Strata

extension SyncEngine {
    /// What wakes the automatic sync: a save here or on the hub, or the polling interval passing.
    enum Wake: Sendable {
        case change
        case poll
    }

    /// Starts watching the local container for saves: each wakes the automatic sync, or, when the app sends and
    /// fetches by itself, is counted in ``status``'s pending saves (those before this call included).
    func observeLocalChanges(automatically: Bool) {
        guard automatically else {
            localObservation = container.observeChanges { [weak self] _ in
                Task { await self?.countPendingSaves() }
            }
            countPendingSaves()
            return
        }
        localObservation = container.observeChanges { [wake] _ in wake.yield(.change) }
    }

    /// Tells ``status`` how many local saves are not sent yet.
    func countPendingSaves() {
        report.pendingSaveCount = pendingSaveCount()
        publishReport()
    }

    /// One automatic round: sends what is pending, fetches what the hub has, and after a failure tries again
    /// later, waiting twice as long each time up to a minute.
    func syncAutomatically() async {
        do {
            try await sendChanges()
            try await fetchChanges()
            if hubObservation == nil, let hub = try? hub {
                // A commit elsewhere on the hub arrives by NOTIFY; polling covers the times it can't.
                hubObservation = hub.container.observeChanges { [wake] change in
                    if change.includesExternalChanges { wake.yield(.change) }
                }
            }
            retryDelay = nil
        } catch {
            let delay = retryDelay.map { min($0 * 2, .seconds(60)) } ?? .seconds(1)
            retryDelay = delay
            Task { [wake] in
                try? await Task.sleep(for: delay)
                wake.yield(.poll)
            }
        }
    }

    /// Stops syncing automatically (CloudKit's `cancelOperations()`): no more sends or fetches start by
    /// themselves; ``sendChanges()`` and ``fetchChanges()`` still work when called.
    public func cancelOperations() async {
        polling?.cancel()
        wake.finish()
        localObservation = nil
        hubObservation = nil
    }

    /// The two things a send or a fetch reports to the status and the events.
    enum Operation {
        case send
        case fetch
    }

    /// Runs a send or fetch, telling the events and the status when it starts and ends; `body` returns how many
    /// local saves are still pending (counted here after a failure). An error that isn't a ``SyncError`` is thrown
    /// as ``SyncError/localStoreFailure(operation:reason:)``.
    func reporting(_ operation: Operation, _ body: () throws -> Int) throws {
        eventStreams.send(operation == .send ? .willSendChanges : .willFetchChanges)
        report.isSyncing = true
        publishReport()
        var failure: SyncError?
        var pending: Int?
        do {
            pending = try body()
        } catch let error as SyncError {
            failure = error
        } catch {
            failure = .localStoreFailure(
                operation: operation == .send ? "read the changes to send" : "save the fetched changes",
                reason: "\(error)")
        }
        if let failure {
            report.lastError = failure
            if case .hubUnavailable = failure { report.isHubReachable = false }
        } else {
            switch operation {
            case .send: report.lastSendDate = Date()
            case .fetch: report.lastFetchDate = Date()
            }
            report.lastError = nil
            report.isHubReachable = true
        }
        report.pendingSaveCount = pending ?? pendingSaveCount()
        report.isSyncing = false
        publishReport()
        eventStreams.send(
            operation == .send ? .didSendChanges(error: failure) : .didFetchChanges(error: failure))
        if let failure { throw failure }
    }

    /// Sends the engine's report to ``status``.
    func publishReport() {
        report.sequence += 1
        let (report, status) = (report, status)
        Task { @MainActor in status.apply(report) }
    }

    /// How many local saves are not sent yet.
    private func pendingSaveCount() -> Int {
        var fetch = StoreHistoryFetch(
            conditions: [.transaction(.greater, state.lastSentTransaction), .author(equal: false, Self.fetchAuthor)])
        fetch.includesChanges = false
        return (try? container.store.fetchHistory(fetch))?.count ?? 0
    }
}
