#if !canImport(Darwin)
import Foundation

extension UndoManager {
    /// Closes the open top-level group, if any, and undoes the last group: its operations run newest first, and
    /// what they register becomes one group on the redo stack. Does nothing while a nested group is open
    /// (Foundation raises) or while undoing or redoing.
    public func undo() {
        guard performing == .nothing, openGroups.count <= 1 else { return }
        if openGroups.count == 1 { endUndoGrouping() }
        undoNestedGroup()
    }

    /// Undoes the last closed group, putting what its operations register on the redo stack. Does nothing while a
    /// group is open or while undoing or redoing. Posts `NSUndoManagerCheckpoint`, `NSUndoManagerWillUndoChange`
    /// and `NSUndoManagerDidUndoChange`.
    public func undoNestedGroup() {
        guard performing == .nothing, openGroups.isEmpty, let group = undoStack.last else { return }
        postCheckpoint()
        NotificationCenter.default.post(name: .NSUndoManagerWillUndoChange, object: self)
        undoStack.removeLast()
        if let inverse = perform(group, as: .undoing) {
            redoStack.append(inverse)
            trimStacks()
        }
        NotificationCenter.default.post(name: .NSUndoManagerDidUndoChange, object: self)
    }

    /// Redoes the last undone group, putting what its operations register back on the undo stack. Does nothing
    /// while a group is open or while undoing or redoing. Posts `NSUndoManagerCheckpoint`,
    /// `NSUndoManagerWillRedoChange` and `NSUndoManagerDidRedoChange`.
    public func redo() {
        guard performing == .nothing, openGroups.isEmpty, let group = redoStack.last else { return }
        postCheckpoint()
        NotificationCenter.default.post(name: .NSUndoManagerWillRedoChange, object: self)
        redoStack.removeLast()
        if let inverse = perform(group, as: .redoing) {
            undoStack.append(inverse)
            trimStacks()
        }
        NotificationCenter.default.post(name: .NSUndoManagerDidRedoChange, object: self)
    }

    /// Runs a group's operations newest first and returns what they registered meanwhile, as one group carrying
    /// the group's name, discardability and user info; `nil` when they registered nothing.
    func perform(_ group: Group, as kind: Performing) -> Group? {
        performing = kind
        openGroups = [Group(actionName: group.actionName, isDiscardable: group.isDiscardable, userInfo: group.userInfo)]
        run(group)
        // Groups an operation began and left open are closed into the collecting group.
        while openGroups.count > 1 {
            let closed = openGroups.removeLast()
            if !closed.isEmpty { openGroups[openGroups.count - 1].entries.append(.group(closed)) }
        }
        let collected = openGroups.first
        openGroups = []
        performing = .nothing
        guard let collected, !collected.isEmpty else { return nil }
        return collected
    }

    /// Runs the group's entries, newest first; nested groups likewise.
    private func run(_ group: Group) {
        for entry in group.entries.reversed() {
            switch entry {
            case .action(let action):
                // A target released since is skipped: its operation has nothing left to act on.
                if let target = action.target { action.perform(target) }
            case .group(let nested):
                run(nested)
            }
        }
    }
}
#endif
