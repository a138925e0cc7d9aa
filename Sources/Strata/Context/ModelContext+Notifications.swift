import Foundation
import Synchronization

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
        guard let template = SaveUserInfo.template else {
            var userInfo = SaveUserInfo.dictionary(inserted: inserted, updated: updated, deleted: deleted)
            if let invalidated { userInfo[NotificationKey.invalidatedAllIdentifiers.rawValue] = invalidated }
            NotificationCenter.default.post(name: name, object: self, userInfo: userInfo)
            return
        }
        var userInfo = template.take()
        template.fill(&userInfo, inserted: inserted, updated: updated, deleted: deleted)
        guard let invalidated else {
            NotificationCenter.default.post(name: name, object: self, userInfo: userInfo)
            template.keep(consume userInfo)
            return
        }
        userInfo[NotificationKey.invalidatedAllIdentifiers.rawValue] = invalidated
        NotificationCenter.default.post(name: name, object: self, userInfo: userInfo)
    }
}

/// The `userInfo` of a save's `didSave` with no identifiers, and the position of each key: a save posts a copy
/// with its identifiers put in place, which hashes and compares no key (a dictionary literal hashed the three
/// `AnyHashable` strings and compared them through dynamic casts, about 5,000 instructions a save). The copy a save
/// posted is kept once its identifiers are emptied (``keep(_:)``), and the next save fills it in place rather than
/// copying the template again (``take()``).
///
/// Unchecked: the dictionary holds three empty arrays of identifiers and is never changed; each save changes its
/// own copy.
private struct SaveUserInfo: @unchecked Sendable {
    let userInfo: [AnyHashable: Any]
    let inserted: Dictionary<AnyHashable, Any>.Index
    let updated: Dictionary<AnyHashable, Any>.Index
    let deleted: Dictionary<AnyHashable, Any>.Index

    static let template = SaveUserInfo()

    /// A copy of the template a save posted, its identifiers emptied, waiting for the next save of any context.
    private static let spare = Mutex(Spare())

    /// Unchecked: the dictionary holds three empty arrays of identifiers, and is taken out under the lock before
    /// it is changed.
    private struct Spare: @unchecked Sendable {
        var userInfo: [AnyHashable: Any]?
    }

    private init?() {
        let userInfo = Self.dictionary(inserted: [], updated: [], deleted: [])
        guard let inserted = userInfo.index(forKey: ModelContext.NotificationKey.insertedIdentifiers.rawValue),
            let updated = userInfo.index(forKey: ModelContext.NotificationKey.updatedIdentifiers.rawValue),
            let deleted = userInfo.index(forKey: ModelContext.NotificationKey.deletedIdentifiers.rawValue)
        else { return nil }
        self.userInfo = userInfo
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
    }

    /// A save's `userInfo` built key by key: the template's contents, and what a save posts without the template.
    static func dictionary(
        inserted: [PersistentIdentifier], updated: [PersistentIdentifier], deleted: [PersistentIdentifier]
    ) -> [AnyHashable: Any] {
        [
            ModelContext.NotificationKey.insertedIdentifiers.rawValue: inserted,
            ModelContext.NotificationKey.updatedIdentifiers.rawValue: updated,
            ModelContext.NotificationKey.deletedIdentifiers.rawValue: deleted,
        ]
    }

    /// A copy of the template to fill: the spare one, which no one else holds unless an observer of the save that
    /// posted it kept it (and changing it then copies it), or a new copy.
    func take() -> [AnyHashable: Any] {
        Self.spare.withLock { Spare(userInfo: $0.userInfo.take()) }.userInfo ?? userInfo
    }

    /// Keeps `posted`, a `userInfo` a save just posted, as the spare, its identifiers emptied (released now).
    func keep(_ posted: consuming [AnyHashable: Any]) {
        fill(&posted, inserted: [], updated: [], deleted: [])
        Self.spare.withLock { $0.userInfo = posted }
    }

    /// Puts a save's identifiers in place by position in `userInfo`, the template or a copy of it.
    func fill(
        _ userInfo: inout [AnyHashable: Any], inserted: [PersistentIdentifier], updated: [PersistentIdentifier],
        deleted: [PersistentIdentifier]
    ) {
        userInfo.values[self.inserted] = inserted
        userInfo.values[self.updated] = updated
        userInfo.values[self.deleted] = deleted
    }
}
