import Foundation
import Strata
@testable import StrataTestFixtures

/// Records every `ModelContext.didSave` one context posts, while it is alive. Notifications may arrive on any
/// thread, so the records are guarded by a lock.
final class SaveRecorder: @unchecked Sendable {
    // `@unchecked`: `saves` is only touched under `lock`; `observer` is set once in `init`.
    struct Save: Equatable {
        var inserted: [PersistentIdentifier]
        var updated: [PersistentIdentifier]
        var deleted: [PersistentIdentifier]
    }

    private let lock = NSLock()
    private var saves: [Save] = []
    private var observer: (any NSObjectProtocol)?

    init(_ context: ModelContext) {
        observer = NotificationCenter.default.addObserver(forName: ModelContext.didSave, object: context, queue: nil) {
            [weak self] note in
            self?.record(note.userInfo)
        }
    }

    deinit {
        if let observer { NotificationCenter.default.removeObserver(observer) }
    }

    /// The saves seen so far, oldest first.
    var recorded: [Save] { lock.withLock { saves } }

    private func record(_ userInfo: [AnyHashable: Any]?) {
        func identifiers(_ key: ModelContext.NotificationKey) -> [PersistentIdentifier] {
            userInfo?[key.rawValue] as? [PersistentIdentifier] ?? []
        }
        let save = Save(
            inserted: identifiers(.insertedIdentifiers), updated: identifiers(.updatedIdentifiers),
            deleted: identifiers(.deletedIdentifiers))
        lock.withLock { saves.append(save) }
    }
}
