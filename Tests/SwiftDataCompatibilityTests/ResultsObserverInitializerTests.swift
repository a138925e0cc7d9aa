import Foundation
import SwiftData
import Testing

@Model final class InitializedTodo {
    var title: String
    init(title: String) { self.title = title }
}

@Model final class UnregisteredTodo {
    var title: String
    init(title: String) { self.title = title }
}

/// `ResultsObserver`'s initializers have SwiftData's shape: they throw when the first fetch fails, and the
/// descriptor, filter and sort have SwiftData's defaults.
@Suite struct ResultsObserverInitializerTests {
    @MainActor @Test func defaultsObserveEveryModel() throws {
        let container = try ModelContainer(for: InitializedTodo.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        container.mainContext.insert(InitializedTodo(title: "milk"))
        try container.mainContext.save()
        let everything = try ResultsObserver<InitializedTodo, Never>(modelContext: container.mainContext)
        let unsorted = try ResultsObserver<InitializedTodo, Never>(filterBy: nil, sortBy: nil, modelContext: container.mainContext)
        #expect(everything.results.map(\.title) == ["milk"])
        #expect(unsorted.results.map(\.title) == ["milk"])
    }

    @MainActor @Test func aFirstFetchThatFailsThrows() throws {
        let container = try ModelContainer(for: InitializedTodo.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        #expect(throws: StrataError.unknownEntity("UnregisteredTodo")) {
            _ = try ResultsObserver<UnregisteredTodo, Never>(modelContext: container.mainContext)
        }
    }
}
