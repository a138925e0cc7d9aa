import Foundation
import Observation

/// What a ``SyncEngine`` reports about itself, for an app to show: when it last sent and fetched, what is still
/// to send, whether the hub could be reached, and the last error. Observable on the main actor, as a view model
/// is; the engine updates it after each send and fetch and after each local save.
@MainActor @Observable
public final class SyncStatus {
    /// When a send last finished, `nil` before the first.
    public internal(set) var lastSendDate: Date?
    /// When a fetch last finished, `nil` before the first.
    public internal(set) var lastFetchDate: Date?
    /// How many local saves are not sent yet (saves a fetch made are not counted).
    public internal(set) var pendingSaveCount = 0
    /// Whether the last attempt reached the hub; `nil` before the first. While it is `false` the device keeps
    /// working offline and its saves stay pending.
    public internal(set) var isHubReachable: Bool?
    /// The error of the last send or fetch, `nil` when it succeeded.
    public internal(set) var lastError: SyncError?
    /// Whether a send or fetch is running.
    public internal(set) var isSyncing = false

    /// The newest report applied: reports reach the main actor in tasks, which may run out of order.
    private var appliedSequence = 0

    nonisolated init() {}

    /// Applies `report` unless a newer one was applied already.
    func apply(_ report: Report) {
        guard report.sequence > appliedSequence else { return }
        appliedSequence = report.sequence
        lastSendDate = report.lastSendDate
        lastFetchDate = report.lastFetchDate
        pendingSaveCount = report.pendingSaveCount
        isHubReachable = report.isHubReachable
        lastError = report.lastError
        isSyncing = report.isSyncing
    }

    /// The engine's state as it sends it to the status.
    struct Report: Sendable {
        var sequence = 0
        var lastSendDate: Date?
        var lastFetchDate: Date?
        var pendingSaveCount = 0
        var isHubReachable: Bool?
        var lastError: SyncError?
        var isSyncing = false
    }
}
