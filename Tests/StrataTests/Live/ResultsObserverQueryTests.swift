import Foundation
import Strata
import Testing
@testable import StrataTestFixtures

@MainActor
@Suite("ResultsObserver: filters, sort, sections, change-set replay")
struct ResultsObserverQueryTests {
    private typealias Fixtures = LiveFixtures

    @Test(arguments: StoreKind.all) func settingTheFilterRefetchesBeforeReturningAndPublishesTheDifference(
        _ kind: StoreKind
    ) throws {
        let container = try Fixtures.memoryContainer(kind)
        try Fixtures.insert([("a", 1), ("b", 2), ("c", 3), ("d", 4)], into: ModelContext(container))
        let observer = try ResultsObserver(sortBy: [SortDescriptor(\LiveTask.priority)], modelContainer: container)
        let recorder = SnapshotRecorder(observer)
        observer.filterBy = #Predicate<LiveTask> { $0.priority > 1 && $0.priority != 3 }
        #expect(observer.fetchError == nil)
        #expect(observer.results.map(\.title) == ["b", "d"])
        #expect(
            recorder.changes == [
                {
                    var expected = ResultsChangeSet()
                    expected.deletedIndexes = [2, 0]
                    return expected
                }()
            ])
    }

    @Test(arguments: StoreKind.all) func settingTheSortPublishesMoves(_ kind: StoreKind) throws {
        let container = try Fixtures.memoryContainer(kind)
        try Fixtures.insert([("a", 1), ("b", 2), ("c", 3)], into: ModelContext(container))
        let observer = try ResultsObserver(sortBy: [SortDescriptor(\LiveTask.priority)], modelContainer: container)
        let recorder = SnapshotRecorder(observer)
        let before = observer.results.identifiers
        observer.sortBy = [SortDescriptor(\LiveTask.priority, order: .reverse)]
        #expect(observer.results.map(\.title) == ["c", "b", "a"])
        let changes = try #require(recorder.changes.first)
        #expect(changes.moves.count == 2)
        #expect(
            Fixtures.apply(changes, to: before, newRows: observer.results.identifiers) == observer.results.identifiers)
    }

    @Test(arguments: StoreKind.all) func settingADescriptorThatFetchesTheSameModelsPublishesNothing(
        _ kind: StoreKind
    ) throws {
        let container = try Fixtures.memoryContainer(kind)
        try Fixtures.insert([("a", 1), ("b", 2)], into: ModelContext(container))
        let observer = try ResultsObserver(sortBy: [SortDescriptor(\LiveTask.priority)], modelContainer: container)
        let recorder = SnapshotRecorder(observer)
        observer.filterBy = #Predicate<LiveTask> { $0.priority > 0 }
        #expect(recorder.snapshots.isEmpty)
        #expect(observer.filterBy != nil)
    }

    @Test(arguments: StoreKind.all) func groupsIntoSectionsAndReportsSectionChanges(_ kind: StoreKind) async throws {
        let container = try Fixtures.memoryContainer(kind)
        let writer = ModelContext(container)
        try Fixtures.insert([("a", 3), ("b", 1)], category: "work", into: writer)
        let home = try Fixtures.insert([("c", 2)], category: "home", into: writer)
        let observer = try ResultsObserver(
            sortBy: [SortDescriptor(\LiveTask.priority)], sectionBy: \LiveTask.category,
            modelContainer: container)
        let sections = try #require(observer.sections)
        #expect(sections.sectionTitles == ["home", "work"])
        #expect(sections[1].map(\.title) == ["b", "a"])
        #expect(sections[1].startOffset == 1)
        #expect(observer.results.map(\.title) == ["c", "b", "a"])
        let recorder = SnapshotRecorder(observer)

        try Fixtures.insert([("d", 0)], category: "errands", into: writer)
        #expect(await Fixtures.eventually { recorder.snapshots.count == 1 })
        #expect(observer.sections?.sectionTitles == ["errands", "home", "work"])
        #expect(recorder.changes[0].insertedSections == [0])
        #expect(recorder.changes[0].insertedIndexes == [0])

        writer.delete(home[0])
        try writer.save()
        #expect(await Fixtures.eventually { recorder.snapshots.count == 2 })
        #expect(observer.sections?.sectionTitles == ["errands", "work"])
        #expect(recorder.changes[1].deletedSections == [1])
        #expect(recorder.changes[1].deletedIndexes == [1])
    }

    @Test(arguments: StoreKind.all) func randomSavesReplayExactlyThroughTheChangesSequence(
        _ kind: StoreKind
    ) async throws {
        let container = try Fixtures.memoryContainer(kind)
        let writer = ModelContext(container)
        let observer = try ResultsObserver(
            filterBy: #Predicate<LiveTask> { $0.priority < 60 },
            sortBy: [SortDescriptor(\LiveTask.priority)], modelContainer: container)
        let stream = observer.changes
        var random = LiveRandom(state: 42)
        var live: [LiveTask] = []
        for round in 0..<25 {
            let fetches = observer.fetchCount
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                switch Int.random(in: 0..<3, using: &random) {
                case 0 where !live.isEmpty:
                    writer.delete(live.remove(at: Int.random(in: 0..<live.count, using: &random)))
                case 1 where !live.isEmpty:
                    live[Int.random(in: 0..<live.count, using: &random)].priority = Int.random(
                        in: 0..<100, using: &random)
                default:
                    let task = LiveTask(title: "r\(round)", priority: Int.random(in: 0..<100, using: &random))
                    writer.insert(task)
                    live.append(task)
                }
            }
            // A round can cancel itself out (insert, then delete the same task): then there is nothing to save.
            guard writer.hasChanges else { continue }
            try writer.save()
            #expect(await Fixtures.eventually { observer.fetchCount > fetches })
        }
        let expected = try writer.fetch(
            FetchDescriptor<LiveTask>(
                predicate: #Predicate { $0.priority < 60 },
                sortBy: [SortDescriptor(\.priority)]))
        #expect(observer.results.identifiers == expected.map(\.persistentModelID))

        var replayed: [PersistentIdentifier] = []
        var iterator = stream.makeAsyncIterator()
        while replayed != observer.results.identifiers, let snapshot = await iterator.next(isolation: #isolation) {
            let newRows = snapshot.results.identifiers
            replayed = Fixtures.apply(snapshot.changes, to: replayed, newRows: newRows)
            #expect(replayed == newRows)
        }
        #expect(replayed == observer.results.identifiers)
    }
}
