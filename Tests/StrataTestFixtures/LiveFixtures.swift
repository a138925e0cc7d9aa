import Foundation
import Strata
import StrataTestSupport

@Model final class LiveTask {
    var title: String
    var priority: Int
    var category: String
    init(title: String, priority: Int, category: String = "inbox") {
        self.title = title
        self.priority = priority
        self.category = category
    }
}

@Model final class LiveNote {
    var text: String
    init(text: String) { self.text = text }
}

@ModelActor actor LiveTaskWriter {
    func add(title: String, priority: Int) throws {
        modelContext.insert(LiveTask(title: title, priority: priority))
        try modelContext.save()
    }
}

/// Collects what an observer publishes.
@MainActor final class SnapshotRecorder {
    var snapshots: [ResultsSnapshot<LiveTask>] = []
    var changes: [ResultsChangeSet] { snapshots.map(\.changes) }

    init(_ observer: ResultsObserver<LiveTask, some Hashable>) {
        observer.onChange = { [unowned self] snapshot in self.snapshots.append(snapshot) }
    }
}

enum LiveFixtures {
    static func memoryContainer(_ kind: StoreKind = .sqlite) throws -> ModelContainer {
        try freshContainer(kind, LiveTask.self, LiveNote.self)
    }

    /// A container on a new file in a fresh temporary folder.
    static func fileContainer() throws -> (ModelContainer, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("strata-live-\(UUID().uuidString)")
        let url = folder.appendingPathComponent("tasks.store")
        return (
            try ModelContainer(for: LiveTask.self, LiveNote.self, configurations: ModelConfiguration(url: url)), url
        )
    }

    /// Inserts tasks and saves them.
    @discardableResult
    static func insert(
        _ tasks: [(String, Int)], category: String = "inbox", into context: ModelContext
    ) throws -> [LiveTask] {
        let models = tasks.map { LiveTask(title: $0.0, priority: $0.1, category: category) }
        for model in models { context.insert(model) }
        try context.save()
        return models
    }

    /// Waits (on the main actor, letting deliveries run) until `condition` holds; `false` after `timeout`.
    /// Returns as soon as it holds (a few milliseconds here); the long timeout only absorbs a machine so busy
    /// that the main actor doesn't get to run. Past the deadline, the jobs already waiting for the main actor run
    /// before the last look: when the main actor was held longer than the timeout, the delivery it was waiting for
    /// may be queued behind this wait's own wake-up (a save's task that posts it, then the delivery).
    @MainActor static func eventually(within timeout: Duration = .seconds(5), _ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !condition() {
            if ContinuousClock.now > deadline {
                for _ in 0..<10 { await Task.yield() }
                return condition()
            }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return true
    }

    /// Lets pending deliveries run, for tests that check nothing happens.
    @MainActor static func settle() async {
        for _ in 0..<5 { await Task.yield() }
        try? await Task.sleep(for: .milliseconds(20))
    }

    /// Applies a change set as documented: removals (deletions and move sources) on old indexes highest first,
    /// then insertions (new rows and move destinations) on new indexes lowest first.
    static func apply<ID>(_ changes: ResultsChangeSet, to old: [ID], newRows: [ID]) -> [ID] {
        var rows = old
        let destinations = Dictionary(uniqueKeysWithValues: changes.moves.map { ($0.from, $0.to) })
        var moved: [Int: ID] = [:]
        for index in (changes.deletedIndexes + changes.moves.map(\.from)).sorted(by: >) {
            let row = rows.remove(at: index)
            if let destination = destinations[index] { moved[destination] = row }
        }
        for index in (changes.insertedIndexes + changes.moves.map(\.to)).sorted() {
            rows.insert(moved[index] ?? newRows[index], at: index)
        }
        return rows
    }
}
