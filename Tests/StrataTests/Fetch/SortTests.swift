import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

/// Strings whose orders in Swift and in bytes disagree (`SeededGenerator` is the Format tests' SplitMix64).
enum TrickyStrings {
    /// Pairs whose byte order (SQLite `BINARY`) and Swift order disagree or that Swift finds equal.
    static let fixed = [
        "éa", "e\u{301}z", "e\u{301}", "é", "\u{FB01}x", "fi", "fz", "K", "\u{212A}", "Å", "\u{212B}", "A\u{30A}",
    ]

    /// Random mixed-case, accented (composed and decomposed) and numeric-suffixed strings.
    static func random(count: Int, seed: UInt64) -> [String] {
        var generator = SeededGenerator(seed: seed)
        let pieces = [
            "a", "A", "e", "E", "é", "e\u{301}", "É", "E\u{301}", "o\u{308}", "ö", "ß", "file", "File", "\u{FB01}", "z",
            " ", "-",
        ]
        return (0..<count).map { _ in
            var text = ""
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                text += pieces.randomElement(using: &generator) ?? ""
            }
            if Bool.random(using: &generator) { text += String(Int.random(in: 0...20, using: &generator)) }
            return text
        }
    }
}

@Suite struct SortTests {
    /// Titles whose orders under Foundation's localized, standard and case-insensitive comparisons differ from
    /// bytes and from each other: case, accents composed and decomposed, ß, ligatures, numbers inside text. (Not
    /// `TrickyStrings.random`: over its mixes `caseInsensitiveCompare` is no total order, "aßﬁ" < "Å" < … < "aßﬁ", so
    /// no sort satisfies it pairwise and each store's order is its sort algorithm's.)
    static let localizedTitles =
        TrickyStrings.fixed + ["file2", "File10", "file1", "ß", "SS", "Straße", "İ", "i", "Z", "a"]
        + [
            "Émile", "emile", "EMILE", "e\u{301}mile", "Zoë", "zoe", "ZOE", "ﬁle", "file 3", "file03", "Ω", "ω",
            "Ärger", "arg",
        ]

    @Test(arguments: StoreKind.all, ["localizedStandardCompare:", "localizedCompare:", "caseInsensitiveCompare:"])
    func localizedSortsOrderAsFoundationCompares(_ kind: StoreKind, selector: String) throws {
        let context = try PredicateFixture.context(
            kind, with: Self.localizedTitles.enumerated().map { PredicateBook(serial: $0, title: $1) })
        let ordering: StrataStringOrdering =
            switch selector {
            case "localizedStandardCompare:": .localizedStandard
            case "localizedCompare:": .localized
            default: .caseInsensitive
            }
        for ascending in [true, false] {
            var descriptor = FetchDescriptor<PredicateBook>(
                predicate: nil,
                sortDescriptors: [FormatSortDescriptor(key: "title", ascending: ascending, selector: selector)])
            let stored = try context.fetch(descriptor).map { $0.title }
            // Every neighbouring pair is in Foundation's order; ties keep the order the rows were saved in.
            for (earlier, later) in zip(stored, stored.dropFirst()) {
                let order = StrataText.compare(earlier, later, ordering: ordering)
                #expect(
                    order == .orderedSame || (order == .orderedAscending) == ascending,
                    "\(earlier.debugDescription) before \(later.debugDescription)")
            }
            #expect(stored.count == Self.localizedTitles.count)
            descriptor.fetchOffset = 10
            descriptor.fetchLimit = 7
            #expect(try context.fetch(descriptor).map { $0.title } == Array(stored[10..<17]))
        }
    }

    @Test func swiftSortsKeyPathStringsWithLessThan() {
        // What the store must match: no localized comparator on Linux, just Swift's `<`.
        let descriptor = SortDescriptor(\PredicateBook.title)
        let composed = PredicateBook(serial: 0, title: "é")
        let decomposed = PredicateBook(serial: 1, title: "e\u{301}")
        #expect(descriptor.compare(composed, decomposed) == .orderedSame)
        #expect(
            descriptor.compare(PredicateBook(serial: 2, title: "éa"), PredicateBook(serial: 3, title: "e\u{301}z"))
                == .orderedAscending)
        #expect("e\u{301}z".utf8.lexicographicallyPrecedes("éa".utf8), "byte order disagrees, so BINARY would be wrong")
    }

    @Test func theCollationAgreesWithSwiftWhereverSwiftAnswers() {
        let strings = TrickyStrings.fixed + TrickyStrings.random(count: 120, seed: 7)
        for left in strings {
            for right in strings {
                let order = StrataText.swiftOrder(left, right)
                if left == right {
                    #expect(order == .orderedSame, "\(left.debugDescription) == \(right.debugDescription)")
                }
                if left < right {
                    #expect(order == .orderedAscending, "\(left.debugDescription) < \(right.debugDescription)")
                }
            }
        }
        // Swift 6.3 answers neither `<` nor `==` here; the collation puts the shorter first.
        #expect(!("e\u{301}" < "éa") && !("éa" < "e\u{301}") && "e\u{301}" != "éa")
        #expect(StrataText.swiftOrder("e\u{301}", "éa") == .orderedAscending)
    }

    @Test(arguments: StoreKind.all, [SortOrder.forward, .reverse])
    func storeOrderMatchesSortDescriptorForStrings(_ kind: StoreKind, order: SortOrder) throws {
        // Composed (NFC) strings, where Swift's `<` is a strict total order: the store's order is exactly Swift's.
        let composed = (TrickyStrings.fixed + TrickyStrings.random(count: 150, seed: 42)).map(
            \.precomposedStringWithCanonicalMapping)
        let descriptor = SortDescriptor(\PredicateBook.title, order: order)
        let context = try PredicateFixture.context(
            kind, with: composed.enumerated().map { PredicateBook(serial: $0, title: $1) })
        let stored = try context.fetch(FetchDescriptor(sortBy: [descriptor]))
        let all = try context.fetch(FetchDescriptor(sortBy: [SortDescriptor(\PredicateBook.serial)]))
        // `sorted(using:)` is stable and the store breaks ties by insertion order, so even equal strings line up.
        #expect(stored.map(\.serial) == all.sorted(using: descriptor).map(\.serial))
    }

    @Test(arguments: StoreKind.all, [SortOrder.forward, .reverse])
    func storeOrderNeverContradictsSortDescriptor(_ kind: StoreKind, order: SortOrder) throws {
        // Composed and decomposed mixed: every pair in the store's order is one `descriptor.compare` accepts
        // (byte order fails this: it puts "e\u{301}z" before "éa").
        let titles = TrickyStrings.fixed + TrickyStrings.random(count: 150, seed: 99)
        let descriptor = SortDescriptor(\PredicateBook.title, order: order)
        let context = try PredicateFixture.context(
            kind, with: titles.enumerated().map { PredicateBook(serial: $0, title: $1) })
        let stored = try context.fetch(FetchDescriptor(sortBy: [descriptor]))
        var contradictions: [String] = []
        for (offset, earlier) in stored.enumerated() {
            for later in stored[(offset + 1)...] where descriptor.compare(earlier, later) == .orderedDescending {
                contradictions.append("\(earlier.title.debugDescription) before \(later.title.debugDescription)")
            }
        }
        #expect(contradictions.isEmpty)
        #expect(stored.count == titles.count)
    }

    @Test(arguments: StoreKind.all) func sortingByAToOneKeyPathOrdersByTheRelatedAttribute(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, RelAuthor.self, RelBook.self, RelChapter.self, RelTag.self)
        let context = ModelContext(container)
        let authors = ["Le Guin", "Butler", "e\u{301}mile", "Émile", "Adams"].map(RelAuthor.init(name:))
        for (index, author) in authors.enumerated() {
            context.insert(RelBook(title: "Book \(index)", author: author))
        }
        context.insert(RelBook(title: "Anonymous"))
        let chaptered = RelBook(title: "Chaptered", author: authors[1])
        chaptered.chapters = [RelChapter(number: 1)]
        context.insert(chaptered)
        let orphan = RelChapter(number: 2)
        context.insert(orphan)
        try context.save()
        let store = container.store as? SQLiteStore
        for order in [SortOrder.forward, .reverse] {
            let byAuthor = SortDescriptor(\RelBook.author?.name, order: order)
            let before = store?.executedStatementCount ?? 0
            let sorted = try context.fetch(FetchDescriptor(sortBy: [byAuthor, SortDescriptor(\RelBook.title)])).map(
                \.title)
            // One statement: the sort key is a correlated subquery, not a fetch per book.
            if let store { #expect(store.executedStatementCount - before == 1) }
            let expected = try context.fetch(FetchDescriptor<RelBook>(sortBy: [SortDescriptor(\.title)]))
                .sorted(using: byAuthor).map(\.title)
            #expect(sorted == expected)
            #expect(sorted.first == (order == .forward ? "Anonymous" : "Book 2"), "nil first, \"e\\u{301}mile\" last")
            let chapters = try context.fetch(
                FetchDescriptor(sortBy: [SortDescriptor(\RelChapter.book?.author?.name, order: order)]))
            #expect(chapters.map(\.number) == (order == .forward ? [2, 1] : [1, 2]))
        }
    }

    @Test func keyPathsThatAreNotStoredAttributesAreRejectedByName() throws {
        let entity = try #require(
            Schema([RelAuthor.self, RelBook.self, RelChapter.self, RelTag.self]).entity(for: RelBook.self))
        for descriptor in [SortDescriptor(\RelBook.title.count), SortDescriptor(\RelBook.author?.name.count)] {
            #expect {
                try FetchPlan.ordering(for: descriptor, entity: entity)
            } throws: { error in
                guard case StrataError.unsupportedSortDescriptor(_, let reason) = error else { return false }
                return reason.contains("not a stored attribute of RelBook")
            }
        }
        let nested = try FetchPlan.ordering(for: SortDescriptor(\RelBook.author?.name), entity: entity)
        #expect(
            try SelectStatement.sqlite.rows(StoreFetch(entity: entity, columns: nil, ordering: [nested]))
                .render(in: SQLiteDialect()).sql
                == #"SELECT "Z_PK" FROM "RelBook" ORDER BY (SELECT "t1"."name" FROM "RelAuthor" AS "t1" "#
                + #"WHERE "t1"."Z_PK" = "RelBook"."author") COLLATE STRATA_SWIFT ASC"#)
    }
}
