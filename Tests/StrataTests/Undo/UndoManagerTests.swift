#if !canImport(Darwin)
import Foundation
import Strata
import Testing
@testable import StrataTestFixtures

/// A value changed through the undo manager the way Foundation's documentation shows: each setter registers the
/// inverse, so undoing registers the redo.
@MainActor private final class Counter {
    let undoManager: UndoManager
    private(set) var value = 0
    private(set) var seenUndoing: [Bool] = []

    init(_ undoManager: UndoManager) { self.undoManager = undoManager }

    func set(_ newValue: Int) {
        let old = value
        undoManager.registerUndo(withTarget: self) { counter in
            counter.seenUndoing.append(counter.undoManager.isUndoing)
            counter.set(old)
        }
        value = newValue
    }
}

/// Records the undo manager notifications posted while it lives.
@MainActor private final class NotificationLog {
    private(set) var names: [String] = []
    private var tokens: [any NSObjectProtocol] = []

    init(_ undoManager: UndoManager) {
        let watched: [Notification.Name] = [
            .NSUndoManagerCheckpoint, .NSUndoManagerWillUndoChange, .NSUndoManagerDidUndoChange,
            .NSUndoManagerWillRedoChange, .NSUndoManagerDidRedoChange, .NSUndoManagerDidOpenUndoGroup,
            .NSUndoManagerWillCloseUndoGroup, .NSUndoManagerDidCloseUndoGroup,
        ]
        for name in watched {
            tokens.append(
                NotificationCenter.default.addObserver(forName: name, object: undoManager, queue: nil) {
                    [weak self] note in
                    let short = note.name.rawValue.replacingOccurrences(of: "NSUndoManager", with: "")
                        .replacingOccurrences(of: "Notification", with: "")
                    MainActor.assumeIsolated { self?.names.append(short) }
                })
        }
    }

    func stop() { for token in tokens { NotificationCenter.default.removeObserver(token) } }
}

@MainActor
@Suite("UndoManager: Foundation's API where Foundation has none")
struct UndoManagerTests {
    /// Lets the main actor finish its current turn, so the group `groupsByEvent` opened closes.
    private func endTurn(_ undoManager: UndoManager) async {
        for _ in 0..<100 where undoManager.groupingLevel > 0 { await Task.yield() }
    }

    @Test func undoRevertsAndRedoReappliesThroughTheRegisteredInverse() {
        let undoManager = UndoManager()
        undoManager.groupsByEvent = false
        let counter = Counter(undoManager)
        #expect(!undoManager.canUndo && !undoManager.canRedo)
        counter.set(1)
        counter.set(2)
        #expect(undoManager.canUndo && undoManager.undoCount == 2)
        undoManager.undo()
        #expect(counter.value == 1)
        #expect(undoManager.canRedo && undoManager.redoCount == 1)
        undoManager.undo()
        #expect(counter.value == 0 && !undoManager.canUndo)
        undoManager.redo()
        undoManager.redo()
        #expect(counter.value == 2 && !undoManager.canRedo)
        #expect(counter.seenUndoing == [true, true, false, false])
    }

    @Test func aNewRegistrationClearsTheRedoStack() {
        let undoManager = UndoManager()
        undoManager.groupsByEvent = false
        let counter = Counter(undoManager)
        counter.set(1)
        undoManager.undo()
        #expect(undoManager.canRedo)
        counter.set(5)
        #expect(!undoManager.canRedo)
        undoManager.undo()
        #expect(counter.value == 0)
    }

    @Test func registrationsInOneMainActorTurnAreOneGroup() async {
        let undoManager = UndoManager()
        let counter = Counter(undoManager)
        counter.set(1)
        counter.set(2)
        #expect(undoManager.groupingLevel == 1)
        await endTurn(undoManager)
        #expect(undoManager.groupingLevel == 0 && undoManager.undoCount == 1)
        counter.set(3)
        await endTurn(undoManager)
        #expect(undoManager.undoCount == 2)
        undoManager.undo()
        #expect(counter.value == 2)
        undoManager.undo()
        #expect(counter.value == 0)
    }

    @Test func undoInTheSameTurnClosesTheTurnsGroupFirst() {
        let undoManager = UndoManager()
        let counter = Counter(undoManager)
        counter.set(1)
        counter.set(2)
        #expect(undoManager.canUndo)
        undoManager.undo()
        #expect(counter.value == 0)
        #expect(undoManager.groupingLevel == 0)
    }

    @Test func explicitGroupsNestAndUndoWhole() {
        let undoManager = UndoManager()
        undoManager.groupsByEvent = false
        let counter = Counter(undoManager)
        undoManager.beginUndoGrouping()
        counter.set(1)
        undoManager.beginUndoGrouping()
        #expect(undoManager.groupingLevel == 2)
        counter.set(2)
        undoManager.undo() // refused while a nested group is open
        #expect(counter.value == 2)
        undoManager.endUndoGrouping()
        undoManager.endUndoGrouping()
        #expect(undoManager.groupingLevel == 0 && undoManager.undoCount == 1)
        undoManager.beginUndoGrouping()
        counter.set(3)
        undoManager.endUndoGrouping()
        undoManager.undo()
        #expect(counter.value == 2)
        undoManager.undo()
        #expect(counter.value == 0)
        undoManager.redo()
        #expect(counter.value == 2)
    }

    @Test func emptyGroupsAndUnbalancedEndsLeaveNothingBehind() {
        let undoManager = UndoManager()
        undoManager.groupsByEvent = false
        undoManager.endUndoGrouping()
        undoManager.beginUndoGrouping()
        undoManager.endUndoGrouping()
        #expect(!undoManager.canUndo && undoManager.groupingLevel == 0)
        undoManager.undo()
        undoManager.redo()
        #expect(!undoManager.canUndo && !undoManager.canRedo)
    }

    @Test func aRegistrationOutsideAnyGroupWithoutEventGroupingIsAGroupOfItsOwn() {
        let undoManager = UndoManager()
        undoManager.groupsByEvent = false
        let counter = Counter(undoManager)
        counter.set(1)
        counter.set(2)
        #expect(undoManager.undoCount == 2 && undoManager.groupingLevel == 0)
    }

    @Test func levelsOfUndoDropsTheOldestGroups() {
        let undoManager = UndoManager()
        undoManager.groupsByEvent = false
        let counter = Counter(undoManager)
        for value in 1...5 { counter.set(value) }
        undoManager.levelsOfUndo = 3
        #expect(undoManager.undoCount == 3)
        counter.set(6)
        #expect(undoManager.undoCount == 3)
        while undoManager.canUndo { undoManager.undo() }
        #expect(counter.value == 3)
    }

    @Test func disabledRegistrationNestsAndIsNotRecorded() {
        let undoManager = UndoManager()
        undoManager.groupsByEvent = false
        let counter = Counter(undoManager)
        undoManager.disableUndoRegistration()
        undoManager.disableUndoRegistration()
        counter.set(1)
        undoManager.enableUndoRegistration()
        #expect(!undoManager.isUndoRegistrationEnabled)
        counter.set(2)
        undoManager.enableUndoRegistration()
        undoManager.enableUndoRegistration()
        #expect(undoManager.isUndoRegistrationEnabled)
        #expect(!undoManager.canUndo)
        counter.set(3)
        undoManager.undo()
        #expect(counter.value == 2)
    }

    @Test func removingOneTargetsActionsKeepsTheOthers() {
        let undoManager = UndoManager()
        undoManager.groupsByEvent = false
        let first = Counter(undoManager)
        let second = Counter(undoManager)
        undoManager.beginUndoGrouping()
        first.set(1)
        second.set(1)
        undoManager.endUndoGrouping()
        first.set(2)
        undoManager.removeAllActions(withTarget: first)
        #expect(undoManager.undoCount == 1)
        undoManager.undo()
        #expect(first.value == 2 && second.value == 0)
        undoManager.disableUndoRegistration()
        undoManager.removeAllActions()
        #expect(undoManager.isUndoRegistrationEnabled && !undoManager.canUndo && !undoManager.canRedo)
    }

    @Test func anOperationWhoseTargetIsGoneIsSkipped() {
        let undoManager = UndoManager()
        undoManager.groupsByEvent = false
        var counter: Counter? = Counter(undoManager)
        counter?.set(1)
        weak let released = counter
        counter = nil
        #expect(released == nil)
        #expect(undoManager.canUndo)
        undoManager.undo()
        #expect(!undoManager.canUndo && !undoManager.canRedo)
    }

    @Test func actionNamesFollowTheirGroupsToTheRedoStack() {
        let undoManager = UndoManager()
        undoManager.groupsByEvent = false
        let counter = Counter(undoManager)
        #expect(undoManager.undoMenuItemTitle == "Undo")
        undoManager.beginUndoGrouping()
        counter.set(1)
        undoManager.setActionName("Count")
        let key = UndoManager.UserInfoKey(rawValue: "source")
        undoManager.setActionUserInfoValue("keyboard", forKey: key)
        undoManager.endUndoGrouping()
        #expect(undoManager.undoActionName == "Count")
        #expect(undoManager.undoMenuItemTitle == "Undo Count")
        #expect(undoManager.undoActionUserInfoValue(forKey: key) as? String == "keyboard")
        undoManager.undo()
        #expect(undoManager.redoActionName == "Count" && undoManager.redoMenuItemTitle == "Redo Count")
        #expect(undoManager.redoActionUserInfoValue(forKey: key) as? String == "keyboard")
        #expect(undoManager.undoActionName.isEmpty)
    }

    @Test func discardableGroupsSaySo() {
        let undoManager = UndoManager()
        undoManager.groupsByEvent = false
        let counter = Counter(undoManager)
        undoManager.beginUndoGrouping()
        counter.set(1)
        undoManager.setActionIsDiscardable(true)
        undoManager.endUndoGrouping()
        #expect(undoManager.undoActionIsDiscardable)
        undoManager.undo()
        #expect(undoManager.redoActionIsDiscardable)
    }

    @Test func postsFoundationsNotificationsInOrder() {
        let undoManager = UndoManager()
        undoManager.groupsByEvent = false
        let counter = Counter(undoManager)
        let log = NotificationLog(undoManager)
        defer { log.stop() }
        undoManager.beginUndoGrouping()
        counter.set(1)
        undoManager.endUndoGrouping()
        undoManager.undo()
        undoManager.redo()
        #expect(
            log.names == [
                "DidOpenUndoGroup", "Checkpoint", "WillCloseUndoGroup", "DidCloseUndoGroup",
                "Checkpoint", "WillUndoChange", "DidUndoChange",
                "Checkpoint", "WillRedoChange", "DidRedoChange",
            ])
    }
}
#endif
