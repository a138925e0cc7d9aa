// Foundation on Darwin declares `UndoManager`; Foundation on Linux and other platforms has none, so Strata supplies
// one with Foundation's API there (and only there, so nothing clashes where Foundation has its own).
#if !canImport(Darwin)
import Foundation

/// A general-purpose recorder of operations that enables undo and redo: Foundation's `UndoManager`, for platforms
/// whose Foundation has none (Linux).
///
/// Register an operation that reverts a change with ``registerUndo(withTarget:handler:)``; ``undo()`` performs the
/// operations of the last group, and the operations they register while undoing become what ``redo()`` performs.
/// A `ModelContext` with an undo manager registers its inserts, property and relationship changes and deletes
/// itself:
///
/// ```swift
/// let context = container.mainContext
/// context.undoManager = UndoManager()
/// book.title = "Dune Messiah"
/// context.undoManager?.undo()        // book.title is "Dune" again
/// ```
///
/// **Grouping.** With ``groupsByEvent`` (the default) the first registration opens a group that closes when the
/// main actor finishes its current job — the job running now returns or suspends at an `await` — which is what
/// an event-loop turn is without a run loop driving a user interface (`RunLoop.main` runs main-actor jobs too, so
/// an app that runs it gets the same turns). ``undo()`` closes that group first, so a change undone in the same
/// turn is undone whole. ``beginUndoGrouping()``/``endUndoGrouping()`` nest groups inside it; set
/// `groupsByEvent = false` to make them the top-level groups instead.
///
/// **Differences from Darwin's Foundation.** Where Foundation raises an Objective-C exception (undo with a
/// nested group still open, ending a group that was never begun), this one does nothing; a registration with no
/// open group while `groupsByEvent` is `false` becomes a group of its own rather than an exception. Targets are
/// held weakly: an operation whose target was released is skipped, never a crash. Menu titles are English
/// ("Undo Typing"). Selector- and invocation-based registration (`registerUndo(withTarget:selector:object:)`,
/// `prepare(withInvocationTarget:)`) and `runLoopModes` need the Objective-C runtime and are not provided.
@MainActor
open class UndoManager {
    /// One registered operation: its handler and its target, held weakly.
    struct Action {
        weak var target: AnyObject?
        let targetIdentity: ObjectIdentifier
        let perform: @MainActor (AnyObject) -> Void
    }

    /// What a group holds, in registration order: operations and nested groups.
    enum Entry {
        case action(Action)
        case group(Group)
    }

    /// A group of operations undone and redone together.
    struct Group {
        var entries: [Entry] = []
        var actionName = ""
        var isDiscardable = false
        var userInfo: [UserInfoKey: Any] = [:]
        /// Whether `groupsByEvent` opened it, to be closed when the main actor's current job ends.
        var opensByEvent = false

        var isEmpty: Bool { entries.isEmpty }
    }

    /// Whether operations are being undone or redone (their registrations go to the other stack).
    enum Performing {
        case nothing, undoing, redoing
    }

    /// Closed top-level groups, the newest last.
    var undoStack: [Group] = []
    /// Groups undone and not redone, the newest last.
    var redoStack: [Group] = []
    /// Groups begun and not ended yet, the innermost last; while undoing or redoing, the first one collects what
    /// the operations register for the other stack.
    var openGroups: [Group] = []
    var disabledRegistrations = 0
    var performing = Performing.nothing
    /// Set while a checkpoint notification is being posted, so an observer asking `canRedo` posts no second one.
    var isPostingCheckpoint = false

    /// Creates an undo manager with empty stacks, grouping by event.
    public init() {}

    /// Whether the first registration in a main-actor turn opens a group that closes when the turn ends
    /// (`true` by default).
    open var groupsByEvent = true

    /// The most top-level groups kept; older ones are dropped as new ones close. `0` (the default) keeps all.
    /// Lowering it drops the oldest groups at once.
    open var levelsOfUndo = 0 {
        didSet {
            levelsOfUndo = Swift.max(levelsOfUndo, 0)
            trimStacks()
        }
    }

    /// How many groups are open: `0` when none, `1` inside a top-level group.
    open var groupingLevel: Int { openGroups.count }

    /// Whether registrations are recorded (see ``disableUndoRegistration()``).
    open var isUndoRegistrationEnabled: Bool { disabledRegistrations == 0 }

    /// Stops recording registrations until a matching ``enableUndoRegistration()``; calls nest.
    open func disableUndoRegistration() {
        disabledRegistrations += 1
    }

    /// Ends one ``disableUndoRegistration()``; calls beyond the disabling ones do nothing.
    open func enableUndoRegistration() {
        disabledRegistrations = Swift.max(disabledRegistrations - 1, 0)
    }

    /// Whether operations are being undone now.
    open var isUndoing: Bool { performing == .undoing }
    /// Whether operations are being redone now.
    open var isRedoing: Bool { performing == .redoing }

    /// Whether there is a group to undo: a closed one, or the top-level group still open with operations in it.
    open var canUndo: Bool {
        if !undoStack.isEmpty { return true }
        return performing == .nothing && openGroups.count == 1 && !openGroups[0].isEmpty
    }

    /// Whether there is a group to redo. Posts `NSUndoManagerCheckpoint`, as Foundation's does.
    open var canRedo: Bool {
        postCheckpoint()
        return !redoStack.isEmpty
    }

    /// The number of groups ``undo()`` can undo, the open top-level group included when it holds operations.
    open var undoCount: Int {
        undoStack.count + (performing == .nothing && openGroups.count == 1 && !openGroups[0].isEmpty ? 1 : 0)
    }
    /// The number of groups ``redo()`` can redo.
    open var redoCount: Int { redoStack.count }

    /// Registers `handler` to undo an operation on `target`: ``undo()`` calls it with `target`. Registering while
    /// not undoing or redoing clears the redo stack. The undo manager holds `target` weakly and `handler`
    /// strongly; an operation whose target is gone is skipped.
    @preconcurrency
    open func registerUndo<TargetType: AnyObject>(
        withTarget target: TargetType,
        handler: @escaping @MainActor (TargetType) -> Void
    ) {
        let action = Action(target: target, targetIdentity: ObjectIdentifier(target)) { object in
            // Only ever called with the target it was registered with.
            if let typed = object as? TargetType { handler(typed) }
        }
        register(action)
    }

    /// Records an operation in the innermost open group, opening one when none is.
    func register(_ action: Action) {
        guard isUndoRegistrationEnabled else { return }
        if performing == .nothing {
            redoStack.removeAll()
            if openGroups.isEmpty {
                guard groupsByEvent else {
                    // Foundation raises here; a group of its own keeps the operation undoable instead.
                    undoStack.append(Group(entries: [.action(action)]))
                    trimStacks()
                    return
                }
                openEventGroup()
            }
        }
        if openGroups.isEmpty { openGroups.append(Group()) }
        openGroups[openGroups.count - 1].entries.append(.action(action))
    }

    /// Removes every operation from both stacks and the open groups, and enables registration again.
    open func removeAllActions() {
        undoStack.removeAll()
        redoStack.removeAll()
        for index in openGroups.indices { openGroups[index].entries.removeAll() }
        disabledRegistrations = 0
    }

    /// Removes every operation registered with `target` (and those whose target is gone) from both stacks and the
    /// open groups; groups left empty go too.
    open func removeAllActions(withTarget target: Any) {
        let identity = ObjectIdentifier(target as AnyObject)
        func keep(_ action: Action) -> Bool {
            guard let current = action.target else { return false }
            return action.targetIdentity != identity || current !== (target as AnyObject)
        }
        undoStack = undoStack.compactMap { $0.filtered(keep) }
        redoStack = redoStack.compactMap { $0.filtered(keep) }
        for index in openGroups.indices {
            openGroups[index].entries = openGroups[index].filtered(keep)?.entries ?? []
        }
    }

    /// Drops the oldest groups beyond ``levelsOfUndo``.
    func trimStacks() {
        guard levelsOfUndo > 0 else { return }
        if undoStack.count > levelsOfUndo { undoStack.removeFirst(undoStack.count - levelsOfUndo) }
        if redoStack.count > levelsOfUndo { redoStack.removeFirst(redoStack.count - levelsOfUndo) }
    }
}

extension UndoManager.Group {
    /// The group without the operations `keep` refuses (nested groups likewise), or `nil` when nothing is left.
    func filtered(_ keep: (UndoManager.Action) -> Bool) -> Self? {
        var copy = self
        copy.entries = entries.compactMap { entry in
            switch entry {
            case .action(let action): keep(action) ? entry : nil
            case .group(let group): group.filtered(keep).map { .group($0) }
            }
        }
        return copy.isEmpty ? nil : copy
    }
}
#endif
