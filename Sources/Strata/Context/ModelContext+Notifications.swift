import Foundation

extension ModelContext {
    /// Posted (with the context as object) before a save writes its changes, without a `userInfo` (as SwiftData).
    public static let willSave = Notification.Name("StrataModelContextWillSave")
    /// Posted (with the context as object) after a save wrote its changes; `userInfo` holds the identifiers
    /// under the `NotificationKey` raw values, which are SwiftData's (`"inserted"`, `"updated"`, `"deleted"`), so
    /// code reading either spelling finds them.
    ///
    /// ```swift
    /// NotificationCenter.default.addObserver(forName: ModelContext.didSave, object: context, queue: nil) { note in
    ///     let inserted = note.userInfo?[ModelContext.NotificationKey.insertedIdentifiers.rawValue] as? [PersistentIdentifier]
    ///     let updated = note.userInfo?["updated"] as? [PersistentIdentifier]
    /// }
    /// ```
    public static let didSave = Notification.Name("StrataModelContextDidSave")

    /// Keys of the `userInfo` of `willSave` and `didSave` notifications. Their raw values are SwiftData's, the
    /// strings of Core Data's context notifications (`"inserted"`, `"updated"`, `"deleted"`, `"invalidatedAll"`).
    public enum NotificationKey: String, Sendable {
        /// The query generation a context reads (Core Data's `queryGeneration`): never in a Strata notification's
        /// `userInfo`, since every context reads the store's latest committed state.
        case queryGeneration
        /// `[PersistentIdentifier]` of every model the context had registered, when the store was erased
        /// (`ModelContainer.erase()`): none of them has a row any more.
        case invalidatedAllIdentifiers = "invalidatedAll"
        /// `[PersistentIdentifier]` of the inserted models.
        case insertedIdentifiers = "inserted"
        /// `[PersistentIdentifier]` of the updated models.
        case updatedIdentifiers = "updated"
        /// `[PersistentIdentifier]` of the deleted models.
        case deletedIdentifiers = "deleted"
    }

    /// Posts `willSave`, which carries no `userInfo`.
    func postWillSaveNotification() {
        NotificationCenter.default.post(name: ModelContext.willSave, object: self, userInfo: nil)
    }

    func postSaveNotification(
        _ name: Notification.Name, inserted: [PersistentIdentifier], updated: [PersistentIdentifier],
        deleted: [PersistentIdentifier], invalidated: [PersistentIdentifier]? = nil
    ) {
        var userInfo: [AnyHashable: Any] = [
            NotificationKey.insertedIdentifiers.rawValue: inserted,
            NotificationKey.updatedIdentifiers.rawValue: updated,
            NotificationKey.deletedIdentifiers.rawValue: deleted,
        ]
        if let invalidated { userInfo[NotificationKey.invalidatedAllIdentifiers.rawValue] = invalidated }
        NotificationCenter.default.post(name: name, object: self, userInfo: userInfo)
    }
}
