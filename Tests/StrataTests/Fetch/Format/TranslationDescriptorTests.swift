import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

/// Format predicates and sort descriptors wherever a fetch takes a predicate: descriptors, pending changes,
/// batch deletes.
@Suite struct TranslationDescriptorTests {
    @Test(arguments: StoreKind.all)
    func initialisersStayUnambiguous(_ kind: StoreKind) throws {
        let context = try TranslationFixture.seededContext(kind)
        // These must keep compiling as SwiftData's initialiser.
        let all = FetchDescriptor<FormatTask>()
        let sorted = FetchDescriptor<FormatTask>(sortBy: [SortDescriptor(\.title)])
        let none: FetchDescriptor<FormatTask> = FetchDescriptor(predicate: nil)
        let swiftData = FetchDescriptor<FormatTask>(predicate: nil, sortBy: [SortDescriptor(\.priority)])
        #expect(all.formatPredicate == nil && none.formatPredicate == nil && swiftData.formatPredicate == nil)
        #expect(try context.fetch(sorted).first?.title == "Café order")
        // The format forms.
        let format = FetchDescriptor<FormatTask>(predicate: FormatPredicate(format: "priority > 2"))
        let formatSorted = FetchDescriptor<FormatTask>(
            predicate: FormatPredicate(format: "priority > 2"), sortBy: [SortDescriptor(\.title)])
        let coreData = FetchDescriptor<FormatTask>(
            predicate: nil, sortDescriptors: [FormatSortDescriptor(key: "priority", ascending: false)])
        #expect(try context.fetch(format).count == 2)
        #expect(try context.fetch(formatSorted).map(\.title) == ["Tax return", "ÉCOLE forms"])
        #expect(try context.fetch(coreData).first?.title == "Tax return")
    }

    @Test(arguments: StoreKind.all)
    func bothPredicatesMustMatch(_ kind: StoreKind) throws {
        let context = try TranslationFixture.seededContext(kind)
        var descriptor = FetchDescriptor<FormatTask>(predicate: #Predicate { $0.priority >= 2 })
        descriptor.formatPredicate = FormatPredicate(format: "isCompleted == NO")
        #expect(try context.fetch(descriptor).map(\.title).sorted() == ["Café order", "Tax return", "file2"])
        #expect(try context.fetchCount(descriptor) == 3)
    }

    @Test(arguments: StoreKind.all)
    func selectorsChooseTheCollation(_ kind: StoreKind) throws {
        let context = try TranslationFixture.seededContext(kind)
        func titles(_ sort: FormatSortDescriptor) throws -> [String] {
            let descriptor = FetchDescriptor<FormatTask>(
                predicate: FormatPredicate(format: "title BEGINSWITH 'file'"), sortDescriptors: [sort])
            return try context.fetch(descriptor).map(\.title)
        }
        #expect(try titles(FormatSortDescriptor(key: "title")) == ["file10", "file2"])
        #expect(
            try titles(FormatSortDescriptor(key: "title", selector: "localizedStandardCompare:")) == [
                "file2", "file10",
            ])
        #expect(
            try titles(
                FormatSortDescriptor(
                    keyPath: \FormatTask.title, ascending: false, selector: "localizedStandardCompare:"))
                == ["file10", "file2"])
        #expect(
            try titles(FormatSortDescriptor(key: "title", selector: "localizedStandardCompare:").reversedSortDescriptor)
                == ["file10", "file2"])
        let caseless = FetchDescriptor<FormatTask>(
            predicate: FormatPredicate(format: "title BEGINSWITH[c] 't' OR title BEGINSWITH 'f'"),
            sortDescriptors: [FormatSortDescriptor(key: "title", selector: "caseInsensitiveCompare:")])
        #expect(try context.fetch(caseless).map(\.title) == ["file10", "file2", "Tax return"])
    }

    @Test(arguments: StoreKind.all)
    func pendingChangesAreJudgedInMemory(_ kind: StoreKind) throws {
        let context = try TranslationFixture.seededContext(kind)
        let descriptor = FetchDescriptor<FormatTask>(
            predicate: FormatPredicate(format: "title CONTAINS[cd] %@ AND isCompleted == NO", "ecole"),
            sortDescriptors: [FormatSortDescriptor(key: "priority", ascending: false)])
        context.insert(FormatTask(title: "Ecole trip", priority: 9))
        context.insert(FormatTask(title: "ECOLE done", isCompleted: true, priority: 8))
        let pickup = try #require(
            try context.fetch(
                FetchDescriptor<FormatTask>(predicate: FormatPredicate(format: "title == 'école pickup'"))
            ).first)
        pickup.priority = 10
        let forms = try #require(
            try context.fetch(FetchDescriptor<FormatTask>(predicate: FormatPredicate(format: "title == 'ÉCOLE forms'")))
                .first)
        forms.isCompleted = false
        #expect(try context.fetch(descriptor).map(\.title) == ["école pickup", "Ecole trip", "ÉCOLE forms"])
        context.delete(pickup)
        #expect(try context.fetch(descriptor).map(\.title) == ["Ecole trip", "ÉCOLE forms"])
        try context.save()
        #expect(try context.fetch(descriptor).map(\.title) == ["Ecole trip", "ÉCOLE forms"])
    }

    @Test(arguments: StoreKind.all)
    func pendingInsertsFollowRelationships(_ kind: StoreKind) throws {
        let context = try TranslationFixture.seededContext(kind)
        let home = try #require(
            try context.fetch(FetchDescriptor<FormatProject>(predicate: FormatPredicate(format: "name == 'Home'")))
                .first)
        let task = FormatTask(title: "New at home")
        context.insert(task)
        task.project = home
        let descriptor = FetchDescriptor<FormatTask>(
            predicate: FormatPredicate(format: "project.name == 'Home' AND project != nil"))
        #expect(try context.fetch(descriptor).map(\.title).sorted() == ["Café order", "New at home", "école pickup"])
    }

    @Test(arguments: StoreKind.all)
    func deleteWhereFormatPredicate(_ kind: StoreKind) throws {
        let context = try TranslationFixture.seededContext(kind)
        context.insert(FormatTask(title: "unsaved file3", isCompleted: true))
        context.insert(FormatTask(title: "unsaved other", isCompleted: false))
        try context.delete(model: FormatTask.self, where: FormatPredicate(format: "isCompleted == YES"))
        try context.save()
        let titles = try context.fetch(FetchDescriptor<FormatTask>()).map(\.title).sorted()
        #expect(titles == ["Café order", "Tax return", "file2", "unsaved other", "école pickup"])
    }

    @Test(arguments: StoreKind.all)
    func parseErrorsSurfaceAtFetch(_ kind: StoreKind) throws {
        let context = try TranslationFixture.seededContext(kind)
        #expect(throws: PredicateFormatError.self) {
            _ = try context.fetch(FetchDescriptor<FormatTask>(predicate: FormatPredicate(format: "title ==")))
        }
    }

    /// Unsaved models are sorted in memory exactly as `ORDER BY` sorts them once saved, ties in insertion order.
    @Test(arguments: StoreKind.all)
    func inMemorySortMatchesTheStore(_ kind: StoreKind) throws {
        let context = try TranslationFixture.context(kind)
        let titles = ["file10", "File2", "file2", "éclair", "Eclair", "e\u{301}clair", "zeta", "Alpha"]
        for (offset, title) in titles.enumerated() {
            context.insert(
                FormatTask(
                    title: title, notes: offset % 3 == 0 ? nil : "n\(offset % 2)", priority: offset % 3,
                    cost: Decimal(offset % 4) / 2, status: FormatStatus.allCases[offset % 3]))
        }
        let sorts: [[FormatSortDescriptor]] = [
            [FormatSortDescriptor(key: "title", selector: "localizedStandardCompare:")],
            [FormatSortDescriptor(key: "title", ascending: false, selector: "caseInsensitiveCompare:")],
            [FormatSortDescriptor(key: "title")],
            [FormatSortDescriptor(key: "notes"), FormatSortDescriptor(key: "priority", ascending: false)],
            [FormatSortDescriptor(key: "status"), FormatSortDescriptor(key: "cost", ascending: false)],
        ]
        var pending: [[String]] = []
        for sort in sorts {
            pending.append(
                try context.fetch(FetchDescriptor<FormatTask>(predicate: nil, sortDescriptors: sort)).map(\.title))
        }
        try context.save()
        for (sort, unsaved) in zip(sorts, pending) {
            let saved = try context.fetch(FetchDescriptor<FormatTask>(predicate: nil, sortDescriptors: sort)).map(
                \.title)
            #expect(unsaved == saved, "\(sort)")
        }
        let standard = pending[0]
        #expect(standard.first == "Alpha" && standard.last == "zeta")
        #expect(try #require(standard.firstIndex(of: "file2")) < (try #require(standard.firstIndex(of: "file10"))))
    }
}
