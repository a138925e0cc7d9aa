import Foundation
import StrataTestSupport
import SwiftData
import Testing

/// The guard's queries run in the store: each selects what its clauses say, on both stores.
@Suite struct TaskQueryTests {
    static let day: TimeInterval = 86_400
    static let now = Date(timeIntervalSinceReferenceDate: 800_000_000)

    /// Six tasks in two folders (one shared, owned by Ada) and none, spread over the days around `now`.
    private func seeded(_ kind: StoreKind) throws -> ModelContext {
        let container = try kind.freshContainer(Schema([TaskItem.self, TaskFolder.self, TaskOwner.self]))
        let context = ModelContext(container)
        let ada = TaskOwner(name: "Ada")
        let work = TaskFolder(name: "Work", isShared: true, owner: ada)
        let home = TaskFolder(name: "Home")
        func at(_ days: Double) -> Date { Self.now.addingTimeInterval(days * Self.day) }
        let tasks = [
            TaskItem(
                code: "T1", title: "Quarterly report", notes: "numbers for Ada", status: .active, priority: 3,
                isFlagged: true, createdAt: at(-3), dueDate: at(2), folder: work),
            TaskItem(
                code: "T2", title: "Renew passport", status: .planned, priority: 2, createdAt: at(-2), dueDate: at(20),
                folder: home),
            TaskItem(
                code: "T3", title: "Fix the fence", status: .blocked, priority: 1, createdAt: at(-1), folder: home),
            TaskItem(
                code: "T4", title: "Résumé", notes: "update the REPORT section", status: .inbox, priority: 5,
                createdAt: at(-1), dueDate: at(5)),
            TaskItem(
                code: "T5", title: "Old invoices", status: .done, priority: 4, isArchived: true, createdAt: at(-10),
                dueDate: at(-9), folder: work),
            TaskItem(
                code: "T6", title: "Plan offsite", status: .active, priority: 4, isFlagged: true, createdAt: at(-2),
                dueDate: at(6), folder: work),
        ]
        for task in tasks { context.insert(task) }
        try context.save()
        return context
    }

    private func codes(_ predicate: Predicate<TaskItem>, in context: ModelContext) throws -> [String] {
        var descriptor = FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\.code)])
        descriptor.includePendingChanges = false
        let fetched = try context.fetch(descriptor).map(\.code)
        // What the store selected is what the predicate says of each task in memory.
        let evaluated = try context.fetch(FetchDescriptor<TaskItem>(sortBy: [SortDescriptor(\.code)]))
            .filter { try predicate.evaluate($0) }.map(\.code)
        #expect(fetched == evaluated)
        return fetched
    }

    @Test(arguments: StoreKind.all) func thePageQuerySelectsByStatusDatesAndFlags(_ kind: StoreKind) throws {
        let context = try seeded(kind)
        let (start, end) = (Self.now.addingTimeInterval(-5 * Self.day), Self.now)
        let open = [TaskStatus.inbox, .planned, .active, .blocked].map(\.rawValue)
        let page = TaskQueries.page(statuses: open, from: start, to: end, includeArchived: false, flaggedOnly: false)
        #expect(try codes(page, in: context) == ["T1", "T2", "T4", "T6"])
        let flagged = TaskQueries.page(statuses: open, from: start, to: end, includeArchived: false, flaggedOnly: true)
        #expect(try codes(flagged, in: context) == ["T1", "T6"])
        let everything = TaskQueries.page(
            statuses: TaskStatus.allCases.map(\.rawValue), from: Self.now.addingTimeInterval(-30 * Self.day), to: end,
            includeArchived: true, flaggedOnly: false)
        #expect(try codes(everything, in: context) == ["T1", "T2", "T4", "T5", "T6"])
    }

    @Test(arguments: StoreKind.all) func theSearchLooksInTitleNotesAndFolder(_ kind: StoreKind) throws {
        let context = try seeded(kind)
        #expect(try codes(TaskQueries.search("report", minimumPriority: 0), in: context) == ["T1", "T4"])
        #expect(try codes(TaskQueries.search("resume", minimumPriority: 0), in: context) == ["T4"])
        #expect(try codes(TaskQueries.search("work", minimumPriority: 4), in: context) == ["T6"])
        #expect(try codes(TaskQueries.search("", minimumPriority: 3), in: context) == ["T1", "T4", "T6"])
    }

    @Test(arguments: StoreKind.all) func theFolderFilterFollowsTheOptionalFolder(_ kind: StoreKind) throws {
        let context = try seeded(kind)
        #expect(
            try codes(TaskQueries.folder(named: "Work", shared: true, minimumPriority: 0), in: context) == ["T1", "T6"])
        #expect(
            try codes(TaskQueries.folder(named: nil, shared: false, minimumPriority: 2), in: context) == ["T2", "T4"])
        #expect(try codes(TaskQueries.folder(named: "Home", shared: true, minimumPriority: 0), in: context) == [])
    }

    @Test(arguments: StoreKind.all) func dueSoonFollowsTwoOptionalLinks(_ kind: StoreKind) throws {
        let context = try seeded(kind)
        let query = TaskQueries.dueSoon(owner: "Ada", after: "T1", excluding: ["T5"], now: Self.now)
        #expect(try codes(query, in: context) == ["T6"])
        let fromStart = TaskQueries.dueSoon(owner: "Ada", after: "", excluding: [], now: Self.now)
        #expect(try codes(fromStart, in: context) == ["T1", "T5", "T6"])
    }
}
