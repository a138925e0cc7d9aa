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
    @MainActor @Test(arguments: StoreKind.all) func defaultsObserveEveryModel(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, InitializedTodo.self)
        container.mainContext.insert(InitializedTodo(title: "milk"))
        try container.mainContext.save()
        let everything = try ResultsObserver<InitializedTodo, Never>(modelContext: container.mainContext)
        let unsorted = try ResultsObserver<InitializedTodo, Never>(
            filterBy: nil, sortBy: nil, modelContext: container.mainContext)
        #expect(everything.results.map(\.title) == ["milk"])
        #expect(unsorted.results.map(\.title) == ["milk"])
    }

    @MainActor @Test(arguments: StoreKind.all) func aFirstFetchThatFailsThrows(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, InitializedTodo.self)
        #expect(throws: StrataError.unknownEntity("UnregisteredTodo")) {
            _ = try ResultsObserver<UnregisteredTodo, Never>(modelContext: container.mainContext)
        }
    }
}

@Model final class SeriesBook {
    var title: String
    var series: String?
    init(title: String, series: String? = nil) {
        self.title = title
        self.series = series
    }
}

/// SwiftData's `sectionBy: KeyPath<Element, String?>`: models without a title share one section, first.
@Suite struct ResultsObserverOptionalSectionTests {
    @MainActor @Test(arguments: StoreKind.all) func anOptionalTitleSectionsModelsWithNilFirst(_ kind: StoreKind) throws
    {
        let container = try freshContainer(kind, SeriesBook.self)
        let context = container.mainContext
        context.insert(SeriesBook(title: "Dune", series: "Dune"))
        context.insert(SeriesBook(title: "Solaris"))
        context.insert(SeriesBook(title: "Children of Dune", series: "Dune"))
        context.insert(SeriesBook(title: "Foundation", series: "Foundation"))
        try context.save()
        let observer = try ResultsObserver(
            sortBy: [SortDescriptor(\SeriesBook.title)], sectionBy: \SeriesBook.series,
            modelContext: context)
        let sections = try #require(observer.sections)
        #expect(sections.map(\.id) == [nil, "Dune", "Foundation"])
        #expect(sections.map { $0.map(\.title) } == [["Solaris"], ["Children of Dune", "Dune"], ["Foundation"]])
    }
}
