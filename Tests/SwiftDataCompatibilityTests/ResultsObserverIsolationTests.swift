import Foundation
import SwiftData
import Testing

@Model final class ObservedTodo {
    var title: String
    var list: String
    init(title: String, list: String = "inbox") {
        self.title = title
        self.list = list
    }
}

/// Watches todos from inside a `@ModelActor`, as a background data service does.
@ModelActor actor TodoWatcher {
    private var observer: ResultsObserver<ObservedTodo, Never>?
    private(set) var refreshes = 0

    func startWatching() throws {
        let observer = try ResultsObserver(
            fetchDescriptor: FetchDescriptor<ObservedTodo>(sortBy: [SortDescriptor(\.title)]),
            modelContext: modelContext)
        observer.onChange = { [unowned self] _ in
            self.assertIsolated()
            self.refreshes += 1
        }
        self.observer = observer
    }

    func titles() -> [String] { observer?.results.map(\.title) ?? [] }

    /// Waits on the actor (letting deliveries run) until the observer shows `count` todos.
    func waitForCount(_ count: Int) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(5)
        while titles().count != count {
            if ContinuousClock.now > deadline { return false }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return true
    }
}

/// Watches todos on a plain actor, with its own context.
actor TodoCounter {
    private var observer: ResultsObserver<ObservedTodo, String>?

    func startCounting(in container: ModelContainer) throws {
        observer = try ResultsObserver(sectionBy: \ObservedTodo.list, modelContainer: container)
    }

    func sectionTitles() -> [String] { observer?.sections?.map(\.id) ?? [] }

    func waitForSections(_ count: Int) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(5)
        while sectionTitles().count != count {
            if ContinuousClock.now > deadline { return false }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return true
    }
}

/// `ResultsObserver` on the main actor and on other actors, and its optional `sections`.
@Suite struct ResultsObserverIsolationTests {
    @MainActor @Test(arguments: StoreKind.all) func sectionsIsNilWithoutSectionBy(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, ObservedTodo.self)
        container.mainContext.insert(ObservedTodo(title: "milk", list: "shopping"))
        try container.mainContext.save()
        let plain = try ResultsObserver(
            fetchDescriptor: FetchDescriptor<ObservedTodo>(), modelContext: container.mainContext)
        #expect(plain.sections == nil)
        #expect(plain.results.count == 1)
        let sectioned = try ResultsObserver(
            fetchDescriptor: FetchDescriptor<ObservedTodo>(), sectionBy: \ObservedTodo.list,
            modelContext: container.mainContext)
        #expect(sectioned.sections?.map(\.id) == ["shopping"])
    }

    @Test(arguments: StoreKind.all) func observerInsideAModelActorRefreshesThere(_ kind: StoreKind) async throws {
        let container = try freshContainer(kind, ObservedTodo.self)
        let watcher = TodoWatcher(modelContainer: container)
        try await watcher.startWatching()
        #expect(await watcher.titles() == [])

        let writer = ModelContext(container)
        writer.insert(ObservedTodo(title: "bread"))
        writer.insert(ObservedTodo(title: "apples"))
        try writer.save()
        #expect(await watcher.waitForCount(2))
        #expect(await watcher.titles() == ["apples", "bread"])
        #expect(await watcher.refreshes >= 1)
    }

    @Test(arguments: StoreKind.all) func observerOnACustomActorRefreshesThere(_ kind: StoreKind) async throws {
        let container = try freshContainer(kind, ObservedTodo.self)
        let counter = TodoCounter()
        try await counter.startCounting(in: container)
        #expect(await counter.sectionTitles() == [])
        let writer = ModelContext(container)
        writer.insert(ObservedTodo(title: "call mum", list: "home"))
        writer.insert(ObservedTodo(title: "report", list: "work"))
        try writer.save()
        #expect(await counter.waitForSections(2))
        #expect(await counter.sectionTitles() == ["home", "work"])
    }
}
