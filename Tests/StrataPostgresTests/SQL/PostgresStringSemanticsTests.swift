import Foundation
import Strata
import Testing
@testable import StrataTestFixtures

@Model final class LookupAuthor {
    var name: String
    @Relationship(deleteRule: .cascade, inverse: \LookupBook.author) var books: [LookupBook] = []
    init(name: String) { self.name = name }
}

@Model final class LookupBook {
    var serial: Int
    var title: String
    var note: String?
    var author: LookupAuthor?
    init(serial: Int, title: String, note: String? = nil) {
        self.serial = serial
        self.title = title
        self.note = note
    }
}

/// Non-ASCII text gives PostgreSQL's store the answers SQLite's gives (and `Predicate.evaluate`): folding,
/// searching, `LIKE`/`MATCHES` and the localized orders, at the top, through a to-one, inside subqueries, in counts,
/// sorts with limits and batch deletes.
@Suite struct PostgresStringSemanticsTests {
    /// Titles where Foundation's semantics differ from bytes: accents precomposed or not, ß, ligatures, the
    /// Turkish dotted İ, emoji sequences, CRLF, numbers in text.
    static let titles = [
        "École", "ecole", "Straße", "STRASSE", "ﬃx", "ffix", "Cafe\u{301}", "Café", "İstanbul", "istanbul", "ISTANBUL",
        "family 👨‍👩‍👧 trip", "crlf\r\nline", "Tolkien", "TOLKIEN é", "file2", "file10", "Dune", "dune", "Œuvre", "ß",
        "plain",
    ]

    /// Authors, each with some of the titles.
    static let authors = ["Émile Zola", "J.R.R. Tolkien", "Ståle", "İlber", "frank"]

    private func seeded(_ kind: StoreKind) throws -> ModelContext {
        let context = ModelContext(try freshContainer(kind, LookupAuthor.self, LookupBook.self))
        let authors = Self.authors.map { LookupAuthor(name: $0) }
        for author in authors { context.insert(author) }
        for (serial, title) in Self.titles.enumerated() {
            let book = LookupBook(
                serial: serial, title: title,
                note: serial % 3 == 0 ? nil : Self.titles[(serial + 5) % Self.titles.count])
            context.insert(book)
            book.author = serial % 6 == 5 ? nil : authors[serial % authors.count]
        }
        try context.save()
        return context
    }

    private func serials(_ format: String, _ arguments: [any Sendable], in context: ModelContext) throws -> [Int] {
        try context.fetch(
            FetchDescriptor<LookupBook>(predicate: FormatPredicate(format: format, argumentArray: arguments))
        ).map(\.serial).sorted()
    }

    static let formats: [(String, [any Sendable])] = [
        ("title CONTAINS[c] %@", ["tolkien"]), ("title CONTAINS[c] %@", ["É"]), ("title CONTAINS[d] %@", ["e"]),
        ("title CONTAINS[cd] %@", ["ECOLE"]), ("title BEGINSWITH[c] %@", ["strasse"]),
        ("title BEGINSWITH[cd] %@", ["istanbul"]),
        ("title ENDSWITH[c] %@", ["é"]), ("title ENDSWITH %@", ["e\u{301}"]), ("title ==[c] %@", ["straße"]),
        ("title ==[cd] %@", ["cafe"]), ("title ==[c] %@", ["ﬃx"]), ("title !=[c] %@", ["dune"]),
        ("title CONTAINS %@", ["👨"]),
        ("title LIKE[c] %@", ["*e?"]), ("title LIKE[cd] %@", ["ecol?"]), ("title LIKE %@", ["*\r\n*"]),
        ("title MATCHES %@", [".*é.*"]),
        ("title MATCHES[c] %@", ["[a-zé]+"]), ("title MATCHES[cd] %@", ["e.*"]), ("title CONTAINS[c] note", []),
        ("note BEGINSWITH[cd] title", []), ("title <[c] %@", ["m"]), ("title IN[c] %@", [["dune", "ÉCOLE"]]),
        ("author.name CONTAINS[cd] %@", ["emile"]), ("ANY author.books.title CONTAINS[c] %@", ["STRASSE"]),
        ("SUBQUERY(author.books, $b, $b.title ENDSWITH[cd] 'e').@count >= 2", []), ("title CONTAINS[c] %@", ["plain"]),
        ("title CONTAINS[c] %@ OR note CONTAINS[c] %@", ["ß", "İ"]),
        ("NOT (title CONTAINS[c] nil) AND note LIKE[c] nil", []),
        ("title LIKE %@", ["file?"]), ("title LIKE[c] %@", ["\\F*"]), ("title LIKE %@", ["*\\"]),
        ("note LIKE[c] %@", ["*ß*"]),
        ("lowercase(title) CONTAINS[d] %@", ["e"]), ("lowercase(title) BEGINSWITH lowercase(note)", []),
        ("lowercase(title) ==[cd] %@", ["ecole"]),
    ]

    @Test("Format string operators with [c], [d] and [cd] match the rows SQLite matches", arguments: StoreKind.all)
    func formatOperators(_ kind: StoreKind) throws {
        let context = try seeded(kind), sqlite = try seeded(.sqlite)
        for (format, arguments) in Self.formats {
            let expected = try serials(format, arguments, in: sqlite)
            #expect(try serials(format, arguments, in: context) == expected, "\(format) \(arguments)")
            let descriptor = FetchDescriptor<LookupBook>(
                predicate: FormatPredicate(format: format, argumentArray: arguments))
            #expect(try context.fetchCount(descriptor) == expected.count, "count \(format)")
        }
        // A few answers spelled out, so the comparison can't pass on two stores that are wrong alike.
        #expect(try serials("title CONTAINS[c] %@", ["tolkien"], in: context) == [13, 14])
        #expect(try serials("title ==[cd] %@", ["cafe"], in: context) == [6, 7])
        #expect(try serials("title ==[c] %@", ["STRASSE"], in: context) == [2, 3])
    }

    @Test("#Predicate string methods match what Predicate.evaluate matches", arguments: StoreKind.all)
    func predicateMethods(_ kind: StoreKind) throws {
        let context = try seeded(kind)
        let (cafe, istanbul, family, strasse) = ("CAFÉ", "istanbul", "👨‍👩‍👧", "STRASSE")
        let same = ComparisonResult.orderedSame, ascending = ComparisonResult.orderedAscending
        let predicates: [Predicate<LookupBook>] = [
            #Predicate { $0.title.localizedStandardContains(cafe) },
            #Predicate { $0.title.localizedStandardContains(istanbul) },
            #Predicate { $0.title.caseInsensitiveCompare(strasse) == same },
            #Predicate { $0.title.caseInsensitiveCompare(istanbul) == ascending },
            #Predicate { $0.title.contains(family) },
            #Predicate { $0.title.starts(with: "Cafe") },
            #Predicate { $0.title.count == 4 },
            #Predicate { $0.title == "Café" },
            #Predicate { ($0.note ?? "").count > 6 },
            #Predicate { $0.author?.name.localizedStandardContains("zola") == true },
            #Predicate { $0.note.flatMap { $0.localizedStandardContains("é") } == true },
        ]
        for predicate in predicates {
            let store = try context.fetch(FetchDescriptor(predicate: predicate)).map(\.serial).sorted()
            let evaluated = try context.fetch(FetchDescriptor<LookupBook>()).filter { try predicate.evaluate($0) }.map(
                \.serial
            ).sorted()
            #expect(store == evaluated)
            #expect(try context.fetchCount(FetchDescriptor(predicate: predicate)) == evaluated.count)
        }
        #expect(
            try context.fetch(FetchDescriptor(predicate: #Predicate<LookupBook> { $0.title.count == 4 })).map(\.serial)
                .sorted()
                == [5, 6, 7, 17, 18])
    }

    @Test(
        "Localized, case-insensitive and standard sorts give SQLite's order, with limits and offsets",
        arguments: StoreKind.all)
    func localizedSorts(_ kind: StoreKind) throws {
        let context = try seeded(kind), sqlite = try seeded(.sqlite)
        for selector in ["localizedStandardCompare:", "caseInsensitiveCompare:", "localizedCompare:"] {
            for ascending in [true, false] {
                // With a limit, only the first values get ranks of their own (of the rows the condition selects).
                for (limit, offset, condition) in [
                    (nil, nil, nil), (5, nil, nil), (4, 3, nil), (1, nil, "serial >= 2"), (3, 5, "serial != 7"),
                    (2, 1, "note != nil"),
                ] as [(Int?, Int?, String?)] {
                    var descriptor = FetchDescriptor<LookupBook>(
                        predicate: condition.map { FormatPredicate(format: $0) },
                        sortDescriptors: [
                            FormatSortDescriptor(key: "title", ascending: ascending, selector: selector),
                            FormatSortDescriptor(key: "serial", ascending: false),
                        ])
                    descriptor.fetchLimit = limit
                    descriptor.fetchOffset = offset
                    let expected = try sqlite.fetch(descriptor).map(\.serial)
                    #expect(
                        try context.fetch(descriptor).map(\.serial) == expected,
                        "\(selector) \(ascending) \(String(describing: limit)) \(condition ?? "")")
                }
            }
        }
        let standard = FetchDescriptor<LookupBook>(
            predicate: FormatPredicate(format: "title BEGINSWITH 'file'"),
            sortDescriptors: [FormatSortDescriptor(key: "title", selector: "localizedStandardCompare:")])
        #expect(try context.fetch(standard).map { $0.title } == ["file2", "file10"])
    }

    @Test("A batch delete with a [cd] predicate deletes the rows SQLite deletes", arguments: StoreKind.all)
    func batchDelete(_ kind: StoreKind) throws {
        var remaining: [[Int]] = []
        for seeded in [try seeded(kind), try seeded(.sqlite)] {
            // A context with no models registered leaves the matching to the store's DELETE.
            let context = ModelContext(seeded.container)
            try context.delete(
                model: LookupBook.self,
                where: FormatPredicate(format: "title CONTAINS[cd] %@ OR note MATCHES[c] %@", "e", ".*ss.*"))
            try context.save()
            remaining.append(try context.fetch(FetchDescriptor<LookupBook>()).map(\.serial).sorted())
        }
        #expect(remaining[0] == remaining[1])
        #expect(!remaining[0].isEmpty && remaining[0].count < Self.titles.count)
    }

    @Test("Authors are matched through their books' titles in subqueries", arguments: StoreKind.all)
    func subqueries(_ kind: StoreKind) throws {
        let context = try seeded(kind), sqlite = try seeded(.sqlite)
        for format in [
            "ANY books.title CONTAINS[c] 'É'", "SUBQUERY(books, $b, $b.title LIKE[cd] '*e*').@count > 1",
            "NONE books.title BEGINSWITH[c] 'i'", "name CONTAINS[cd] 'stale'",
            "books.@count > 0 AND name MATCHES[c] '.*İ.*'",
        ] {
            let names = { (context: ModelContext) in
                try context.fetch(FetchDescriptor<LookupAuthor>(predicate: FormatPredicate(format: format))).map(\.name)
                    .sorted()
            }
            #expect(try names(context) == names(sqlite), "\(format)")
        }
    }
}
