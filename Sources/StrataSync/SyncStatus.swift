import Foundation
import Observation

/// What a ``SyncEngine`` reports about itself, for an app to show: when it last sent and fetched, what is still
/// to send, whether the hub could be reached, and the last error. Observable on the main actor, as a view model
/// is; the engine updates it after each send and fetch and after each local save.
@MainActor @Observable
public final class SyncStatus {
    /// When a send last finished, `nil` before the first.
    public var lastSendDate: Date? { report.lastSendDate }
    /// When a fetch last finished, `nil` before the first.
    public var lastFetchDate: Date? { report.lastFetchDate }
    /// How many local saves are not sent yet (saves a fetch made are not counted); counted again after each local
    /// save, whether the engine syncs by itself or the app calls ``SyncEngine/sendChanges()``.
    public var pendingSaveCount: Int { report.pendingSaveCount }
    /// Whether the last attempt reached the hub; `nil` before the first. While it is `false` the device keeps
    /// working offline and its saves stay pending.
    public var isHubReachable: Bool? { report.isHubReachable }
    /// The error of the last send or fetch, `nil` when it succeeded.
    public var lastError: SyncError? { report.lastError }
    /// Whether a send or fetch is running.
    public var isSyncing: Bool { report.isSyncing }

    /// The newest report applied: reports reach the main actor in tasks, which may run out of order.
    private var report = Report()

    nonisolated init() {}

    /// Applies `report` unless a newer one was applied already.
    func apply(_ report: Report) {
        guard report.sequence > self.report.sequence else { return }
        self.report = report
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
