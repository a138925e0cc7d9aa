import Foundation
import SwiftData
import Testing

@Model final class FinderDocument {
    var name: String
    var folder: String?
    init(name: String, folder: String? = nil) {
        self.name = name
        self.folder = folder
    }
}

/// `SortDescriptor(\.name, comparator: .localizedStandard)`, the Finder-like order SwiftData apps sort file and item
/// names by: case- and accent-insensitive, numbers by value.
@Suite struct LocalizedStandardSortTests {
    static let names = [
        "file10", "File2", "file1", "éclair", "Eclair", "zebra", "apple", "Banana", "item 9", "Item 10",
    ]
    /// The order Apple's `localizedStandardCompare` gives: what the Finder shows.
    static let finderOrder = [
        "apple", "Banana", "Eclair", "éclair", "file1", "File2", "file10", "item 9", "Item 10", "zebra",
    ]

    @Test func theComparatorIsFoundationsFinderOrder() {
        #expect(Self.names.sorted { $0.localizedStandardCompare($1) == .orderedAscending } == Self.finderOrder)
        let descriptor = SortDescriptor(\FinderDocument.name, comparator: .localizedStandard)
        #expect(descriptor.stringComparator == .localizedStandard)
        #expect(String.StandardComparator.localizedStandard != .lexical)
        #expect(String.StandardComparator.localized != .lexical)
        #expect(String.StandardComparator.localized != .localizedStandard)
        // Foundation's own comparison, which `sorted(using:)` calls, orders numbers by value on Linux too, and compares
        // text outside ASCII without stopping.
        let files = ["file10", "file2", "file1", "éclair"].map { FinderDocument(name: $0) }
        #expect(files.sorted(using: descriptor).map(\.name) == ["file1", "file2", "file10", "éclair"])
    }

    @Test(arguments: StoreKind.all) func fetchSortsAsTheFinderDoes(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, FinderDocument.self)
        let context = ModelContext(container)
        for name in Self.names { context.insert(FinderDocument(name: name)) }
        try context.save()

        let forward = try context.fetch(
            FetchDescriptor<FinderDocument>(sortBy: [SortDescriptor(\.name, comparator: .localizedStandard)]))
        #expect(forward.map(\.name) == Self.finderOrder)
        let reverse = try context.fetch(
            FetchDescriptor<FinderDocument>(
                sortBy: [SortDescriptor(\.name, comparator: .localizedStandard, order: .reverse)]))
        #expect(reverse.map(\.name) == Self.finderOrder.reversed())

        var firstThree = FetchDescriptor<FinderDocument>(sortBy: [
            SortDescriptor(\.name, comparator: .localizedStandard)
        ])
        firstThree.fetchLimit = 3
        firstThree.fetchOffset = 4
        #expect(try context.fetch(firstThree).map(\.name) == ["file1", "File2", "file10"])
    }

    @Test(arguments: StoreKind.all) func unsavedModelsMergeInFinderOrder(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, FinderDocument.self)
        let context = ModelContext(container)
        context.autosaveEnabled = false
        for name in ["file10", "apple", "item 9"] { context.insert(FinderDocument(name: name)) }
        try context.save()
        for name in ["File2", "Banana", "Item 10"] { context.insert(FinderDocument(name: name)) }

        let merged = try context.fetch(
            FetchDescriptor<FinderDocument>(sortBy: [SortDescriptor(\.name, comparator: .localizedStandard)]))
        #expect(merged.map(\.name) == ["apple", "Banana", "File2", "file10", "item 9", "Item 10"])
    }

    @Test(arguments: StoreKind.all) func optionalNamesSortNilFirst(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, FinderDocument.self)
        let context = ModelContext(container)
        for (name, folder) in [("a", "Photos 10"), ("b", nil), ("c", "photos 2"), ("d", "Archive")] {
            context.insert(FinderDocument(name: name, folder: folder))
        }
        try context.save()
        let sorted = try context.fetch(
            FetchDescriptor<FinderDocument>(sortBy: [SortDescriptor(\.folder, comparator: .localizedStandard)]))
        #expect(sorted.map(\.folder) == [nil, "Archive", "photos 2", "Photos 10"])
    }

    @Test(arguments: StoreKind.all) func localizedSortsByTheLocale(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, FinderDocument.self)
        let context = ModelContext(container)
        let names = ["zebra", "Éclair", "eclair", "apple", "Banana"]
        for name in names { context.insert(FinderDocument(name: name)) }
        try context.save()
        let sorted = try context.fetch(
            FetchDescriptor<FinderDocument>(sortBy: [SortDescriptor(\.name, comparator: .localized)]))
        #expect(sorted.map(\.name) == names.sorted { $0.localizedCompare($1) == .orderedAscending })
        #expect(sorted.first?.name == "apple")
        #expect(sorted.last?.name == "zebra")
    }

    @Test(arguments: StoreKind.all) func lexicalAndPlainSortsKeepSwiftsOrder(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, FinderDocument.self)
        let context = ModelContext(container)
        for name in ["b", "B", "a10", "a2"] { context.insert(FinderDocument(name: name)) }
        try context.save()
        let lexical = try context.fetch(
            FetchDescriptor<FinderDocument>(sortBy: [SortDescriptor(\.name, comparator: .lexical)]))
        #expect(lexical.map(\.name) == ["B", "a10", "a2", "b"])
        let plain = try context.fetch(FetchDescriptor<FinderDocument>(sortBy: [SortDescriptor(\.name)]))
        #expect(plain.map(\.name) == ["B", "a10", "a2", "b"])
    }
}
