import Foundation
import Synchronization

extension SyncEngine {
    /// Something a ``SyncEngine`` did, as ``SyncEngine/events`` reports it (CloudKit's `CKSyncEngine.Event`, for the
    /// cases Strata has).
    public enum Event: Sendable {
        /// The engine's state changed: keep this serialization and give it back at the next start.
        case stateUpdate(State.Serialization)
        /// A send is starting.
        case willSendChanges
        /// A send finished: every pending save was sent, or `error` says why not.
        case didSendChanges(error: SyncError?)
        /// A fetch is starting.
        case willFetchChanges
        /// A fetch finished: the hub's changes are saved locally, or `error` says why not.
        case didFetchChanges(error: SyncError?)
    }

    /// The engine's events from now on, in order. Each call makes a sequence of its own; it ends when the engine is
    /// released or its operations are cancelled.
    public nonisolated var events: AsyncStream<Event> { eventStreams.stream() }
}

/// The open sequences of a sync engine's events.
final class SyncEventStreams: Sendable {
    private let continuations = Mutex<(next: Int, open: [Int: AsyncStream<SyncEngine.Event>.Continuation])?>(
        (0, [:]))

    /// A new sequence, receiving every event sent from now on.
    func stream() -> AsyncStream<SyncEngine.Event> {
        let (stream, continuation) = AsyncStream<SyncEngine.Event>.makeStream()
        let key: Int? = continuations.withLock { state in
            guard var current = state else { return nil }
            let key = current.next
            current.next += 1
            current.open[key] = continuation
            state = current
            return key
        }
        guard let key else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            self?.continuations.withLock { state in _ = state?.open.removeValue(forKey: key) }
        }
        return stream
    }

    /// Sends `event` to every open sequence.
    func send(_ event: SyncEngine.Event) {
        let open = continuations.withLock { $0.map { Array($0.open.values) } ?? [] }
        for continuation in open { continuation.yield(event) }
    }

    /// Ends every sequence; later ones end at once.
    func finish() {
        let open = continuations.withLock { state in
            defer { state = nil }
            return state.map { Array($0.open.values) } ?? []
        }
        for continuation in open { continuation.finish() }
    }
}
