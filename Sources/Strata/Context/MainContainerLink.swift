import Foundation

/// The main context's reference to its container.
///
/// The container owns its main context, so the context first refers to it weakly. When the container is released
/// while the context is still in use, the container hands the context a successor over the same store (see
/// `ModelContainer.handOverToMainContext()`), which the context then keeps alive, and which refers back to the
/// context weakly: neither keeps the other in a cycle, and the store closes once both are gone.
///
/// Unchecked: the handover runs in the container's `deinit`, on whatever thread released it, while the context
/// reads its container on the main actor; both references are only read and written under `lock`.
final class MainContainerLink: @unchecked Sendable {
    private let lock = NSLock()
    private weak var original: ModelContainer?
    private var successor: ModelContainer?

    init(_ container: ModelContainer) {
        original = container
    }

    /// The container the context belongs to now: the original while it lives, then its successor, if it left one.
    var container: ModelContainer? {
        lock.withLock { original ?? successor }
    }

    /// Keeps `successor` as the context's container.
    func adopt(_ successor: ModelContainer) {
        lock.withLock { self.successor = successor }
    }
}
