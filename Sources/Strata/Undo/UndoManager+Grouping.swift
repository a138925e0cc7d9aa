#if !canImport(Darwin)
import Foundation

extension UndoManager {
    /// Opens a group: the operations registered until the matching ``endUndoGrouping()`` are undone together.
    ///
    /// With ``groupsByEvent`` on and no group open, the turn's group opens first and this one nests inside it.
    /// Posts `NSUndoManagerCheckpoint` (unless it opens a top-level group) and `NSUndoManagerDidOpenUndoGroup`.
    public func beginUndoGrouping() {
        if openGroups.isEmpty, groupsByEvent, performing == .nothing { openEventGroup() }
        if !openGroups.isEmpty { postCheckpoint() }
        openGroups.append(Group())
        NotificationCenter.default.post(name: .NSUndoManagerDidOpenUndoGroup, object: self)
    }

    /// Closes the innermost open group; a top-level group that holds operations joins the undo stack (dropping the
    /// oldest beyond ``levelsOfUndo``), an empty one is discarded. Does nothing when no group is open (Foundation
    /// raises). Posts `NSUndoManagerCheckpoint`, `NSUndoManagerWillCloseUndoGroup` and
    /// `NSUndoManagerDidCloseUndoGroup`.
    public func endUndoGrouping() {
        // While undoing or redoing, the first open group collects for the other stack and is closed by that.
        let firstClosable = performing == .nothing ? 0 : 1
        guard openGroups.count > firstClosable else { return }
        postCheckpoint()
        let discardable = [NSUndoManagerGroupIsDiscardableKey: openGroups[openGroups.count - 1].isDiscardable]
        NotificationCenter.default.post(name: .NSUndoManagerWillCloseUndoGroup, object: self, userInfo: discardable)
        let closed = openGroups.removeLast()
        if openGroups.isEmpty {
            if !closed.isEmpty {
                undoStack.append(closed)
                trimStacks()
            }
        } else if !closed.isEmpty {
            openGroups[openGroups.count - 1].entries.append(.group(closed))
        }
        NotificationCenter.default.post(name: .NSUndoManagerDidCloseUndoGroup, object: self, userInfo: discardable)
    }

    /// Opens the top-level group of this main-actor turn and schedules its closing.
    func openEventGroup() {
        openGroups.append(Group(opensByEvent: true))
        NotificationCenter.default.post(name: .NSUndoManagerDidOpenUndoGroup, object: self)
        // A main-actor job enqueued now runs once the current one returns or suspends: the end of the turn.
        Task { @MainActor [weak self] in self?.closeEventGroup() }
    }

    /// Closes the turn's group if it is the only one open; a group the app began and left open keeps it open.
    func closeEventGroup() {
        guard performing == .nothing, openGroups.count == 1, openGroups[0].opensByEvent else { return }
        endUndoGrouping()
    }

    // MARK: - Action names, discardable groups, user info

    /// Names the group being built (or, when none is open, the last one closed): what `undoMenuItemTitle` shows.
    public func setActionName(_ actionName: String) {
        if !openGroups.isEmpty {
            openGroups[0].actionName = actionName
        } else if !undoStack.isEmpty {
            undoStack[undoStack.count - 1].actionName = actionName
        }
    }

    /// The name of the group ``undo()`` would undo; empty when it has none or there is nothing to undo.
    public var undoActionName: String {
        if performing == .nothing, openGroups.count == 1, !openGroups[0].isEmpty { return openGroups[0].actionName }
        return undoStack.last?.actionName ?? ""
    }

    /// The name of the group ``redo()`` would redo; empty when it has none or there is nothing to redo.
    public var redoActionName: String { redoStack.last?.actionName ?? "" }

    /// "Undo" followed by ``undoActionName``, for a menu item.
    public var undoMenuItemTitle: String { undoMenuTitle(forUndoActionName: undoActionName) }
    /// "Redo" followed by ``redoActionName``, for a menu item.
    public var redoMenuItemTitle: String { redoMenuTitle(forUndoActionName: redoActionName) }

    /// "Undo \(actionName)", or "Undo" for an empty name.
    public func undoMenuTitle(forUndoActionName actionName: String) -> String {
        actionName.isEmpty ? "Undo" : "Undo \(actionName)"
    }

    /// "Redo \(actionName)", or "Redo" for an empty name.
    public func redoMenuTitle(forUndoActionName actionName: String) -> String {
        actionName.isEmpty ? "Redo" : "Redo \(actionName)"
    }

    /// Marks the group being built as discardable (or not): a change that alters no document state, such as a
    /// selection. The close notifications carry it under `NSUndoManagerGroupIsDiscardableKey`.
    public func setActionIsDiscardable(_ discardable: Bool) {
        guard !openGroups.isEmpty else { return }
        openGroups[openGroups.count - 1].isDiscardable = discardable
    }

    /// Whether the group ``undo()`` would undo is discardable.
    public var undoActionIsDiscardable: Bool {
        if performing == .nothing, openGroups.count == 1, !openGroups[0].isEmpty { return openGroups[0].isDiscardable }
        return undoStack.last?.isDiscardable ?? false
    }

    /// Whether the group ``redo()`` would redo is discardable.
    public var redoActionIsDiscardable: Bool { redoStack.last?.isDiscardable ?? false }

    /// A key for the values an app attaches to an undo group with ``setActionUserInfoValue(_:forKey:)``.
    public struct UserInfoKey: Hashable, RawRepresentable, Sendable {
        /// The key's name.
        public let rawValue: String
        /// Creates a key named `rawValue`.
        public init(rawValue: String) { self.rawValue = rawValue }
    }

    /// Attaches `info` under `key` to the group being built (or, when none is open, the last one closed); `nil`
    /// removes it.
    public func setActionUserInfoValue(_ info: Any?, forKey key: UserInfoKey) {
        if !openGroups.isEmpty {
            openGroups[0].userInfo[key] = info
        } else if !undoStack.isEmpty {
            undoStack[undoStack.count - 1].userInfo[key] = info
        }
    }

    /// The value attached under `key` to the group ``undo()`` would undo.
    public func undoActionUserInfoValue(forKey key: UserInfoKey) -> Any? {
        if performing == .nothing, openGroups.count == 1, !openGroups[0].isEmpty { return openGroups[0].userInfo[key] }
        return undoStack.last?.userInfo[key]
    }

    /// The value attached under `key` to the group ``redo()`` would redo.
    public func redoActionUserInfoValue(forKey key: UserInfoKey) -> Any? {
        redoStack.last?.userInfo[key]
    }

    /// Posts `NSUndoManagerCheckpoint`, unless one is being posted.
    func postCheckpoint() {
        guard !isPostingCheckpoint else { return }
        isPostingCheckpoint = true
        defer { isPostingCheckpoint = false }
        NotificationCenter.default.post(name: .NSUndoManagerCheckpoint, object: self)
    }
}
#endif
