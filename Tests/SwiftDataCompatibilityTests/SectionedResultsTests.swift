import Foundation
import SwiftData
import Testing

@Model final class ShelvedItem {
    var name: String
    var category: String
    var note: String?
    init(name: String, category: String, note: String? = nil) {
        self.name = name
        self.category = category
        self.note = note
    }
}

/// `ResultsObserver.sections` as SwiftData's iOS 27 shapes read it: `title`, `sectionTitles`, lookups by title,
/// `sectionBy`, and `results` as a `FetchResultsCollection`.
@MainActor
@Suite("SectionedResults and ResultsSection")
struct SectionedResultsTests {
    private func observer(_ kind: StoreKind) throws -> (ModelContainer, ResultsObserver<ShelvedItem, String>) {
        let container = try freshContainer(kind, ShelvedItem.self)
        let context = container.mainContext
        for (name, category) in [
            ("Pens", "Work"), ("Tea", "Personal"), ("Laptop", "Work"), ("Books", "Personal"), ("Bike", "Sport"),
        ] {
            context.insert(ShelvedItem(name: name, category: category))
        }
        try context.save()
        let observer = try ResultsObserver<ShelvedItem, String>(
            sortBy: [SortDescriptor(\.name)], sectionBy: \.category,
            modelContext: context)
        return (container, observer)
    }

    @Test(arguments: StoreKind.all) func sectionsAreLookedUpByTitle(_ kind: StoreKind) throws {
        let (_, observer) = try observer(kind)
        let sections = try #require(observer.sections)
        #expect(sections.sectionTitles == ["Personal", "Sport", "Work"])
        #expect(sections.map(\.title) == sections.map(\.id))
        let work = try #require(sections[sectionTitle: "Work"])
        #expect(work.title == "Work" && work.map(\.name) == ["Laptop", "Pens"])
        #expect(work.startOffset == 3)
        #expect(sections[sectionTitle: "Garden"] == nil)
        #expect(sections.contains(sectionTitle: "Sport") && !sections.contains(sectionTitle: "Garden"))
        #expect(sections.index(ofSectionTitled: "Work") == 2 && sections.index(ofSectionTitled: "Garden") == nil)
        let workCount = sections[sectionTitle: "Work"]?.count ?? 0
        #expect(workCount == 2)
    }

    /// The iOS 27 beta SDK's spelling: `ResultsSectionCollection`, section names instead of titles.
    @Test(arguments: StoreKind.all) func sectionsAreLookedUpByName(_ kind: StoreKind) throws {
        let (_, observer) = try observer(kind)
        let collection: ResultsSectionCollection<ShelvedItem, String>? = observer.sections
        let sections = try #require(collection)
        #expect(sections.sectionNames == ["Personal", "Sport", "Work"])
        #expect(sections.map(\.name) == sections.map(\.id))
        let work = try #require(sections[sectionName: "Work"])
        #expect(work.name == "Work" && work.map(\.name) == ["Laptop", "Pens"])
        #expect(sections[sectionName: "Garden"] == nil)
        #expect(sections.contains(sectionName: "Sport") && !sections.contains(sectionName: "Garden"))
        #expect(sections.index(ofSectionNamed: "Work") == 2 && sections.index(ofSectionNamed: "Garden") == nil)
    }

    @Test(arguments: StoreKind.all) func sectionByAndResultsHaveSwiftDatasTypes(_ kind: StoreKind) throws {
        let (container, observer) = try observer(kind)
        let sectionBy: PartialKeyPath<ShelvedItem>? = observer.sectionBy
        #expect(sectionBy == \ShelvedItem.category)
        let results: FetchResultsCollection<ShelvedItem> = observer.results
        #expect(results.map(\.name) == ["Books", "Tea", "Bike", "Laptop", "Pens"])
        let plain = try ResultsObserver<ShelvedItem, Never>(modelContext: container.mainContext)
        #expect(plain.sectionBy == nil)
    }

    @Test(arguments: StoreKind.all) func sectionsCompareEqualWhenTheyHoldTheSameModels(_ kind: StoreKind) async throws {
        let (container, observer) = try observer(kind)
        let before = try #require(observer.sections)
        #expect(before == observer.sections)
        container.mainContext.insert(ShelvedItem(name: "Ball", category: "Sport"))
        try container.mainContext.save()
        let deadline = ContinuousClock.now + .seconds(5)
        while observer.sections?[sectionTitle: "Sport"]?.count != 2, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        let after = try #require(observer.sections)
        #expect(after[sectionTitle: "Sport"]?.map(\.name) == ["Ball", "Bike"])
        #expect(after != before)
        #expect(after[sectionTitle: "Personal"] == before[sectionTitle: "Personal"])
        #expect(after[sectionTitle: "Work"] != before[sectionTitle: "Work"], "moved down by one")
    }

    @Test(arguments: StoreKind.all) func optionalTitlesLookUpTheNilSection(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, ShelvedItem.self)
        let context = container.mainContext
        context.insert(ShelvedItem(name: "Pens", category: "Work", note: "blue"))
        context.insert(ShelvedItem(name: "Tea", category: "Personal"))
        try context.save()
        let observer = try ResultsObserver(
            sortBy: [SortDescriptor(\ShelvedItem.name)], sectionBy: \ShelvedItem.note,
            modelContext: context)
        let sections = try #require(observer.sections)
        #expect(sections.sectionTitles == [nil, "blue"])
        #expect(sections[sectionTitle: nil]?.map(\.name) == ["Tea"])
        #expect(sections.index(ofSectionTitled: "blue") == 1)
    }
}
