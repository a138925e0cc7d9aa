#if !canImport(Darwin)
import Foundation

extension NSNotification.Name {
    /// Posted when an undo manager opens or closes a group (except when it opens a top-level group), and when
    /// `canRedo` is read. The object is the undo manager.
    public static let NSUndoManagerCheckpoint = NSNotification.Name("NSUndoManagerCheckpointNotification")
    /// Posted just before an undo manager undoes a group. The object is the undo manager.
    public static let NSUndoManagerWillUndoChange = NSNotification.Name("NSUndoManagerWillUndoChangeNotification")
    /// Posted just before an undo manager redoes a group. The object is the undo manager.
    public static let NSUndoManagerWillRedoChange = NSNotification.Name("NSUndoManagerWillRedoChangeNotification")
    /// Posted just after an undo manager undid a group. The object is the undo manager.
    public static let NSUndoManagerDidUndoChange = NSNotification.Name("NSUndoManagerDidUndoChangeNotification")
    /// Posted just after an undo manager redid a group. The object is the undo manager.
    public static let NSUndoManagerDidRedoChange = NSNotification.Name("NSUndoManagerDidRedoChangeNotification")
    /// Posted when an undo manager opens a group. The object is the undo manager.
    public static let NSUndoManagerDidOpenUndoGroup = NSNotification.Name("NSUndoManagerDidOpenUndoGroupNotification")
    /// Posted just before an undo manager closes a group; `userInfo` holds `NSUndoManagerGroupIsDiscardableKey`.
    public static let NSUndoManagerWillCloseUndoGroup = NSNotification.Name(
        "NSUndoManagerWillCloseUndoGroupNotification")
    /// Posted just after an undo manager closed a group; `userInfo` holds `NSUndoManagerGroupIsDiscardableKey`.
    public static let NSUndoManagerDidCloseUndoGroup = NSNotification.Name("NSUndoManagerDidCloseUndoGroupNotification")
}

/// The `userInfo` key of the close-group notifications: whether the group is discardable (a `Bool`).
public let NSUndoManagerGroupIsDiscardableKey = "NSUndoManagerGroupIsDiscardableKey"
#endif
