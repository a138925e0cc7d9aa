import Foundation
import Strata
import Testing
@testable import StrataTestFixtures

/// A shelf a `PredicateBook` sits on, stored by raw value.
enum PredicateShelf: String, Codable, CaseIterable {
    case fiction, poetry, science
}

/// The model the predicate tests query: one attribute of each kind they translate.
@Model
final class PredicateBook {
    var serial: Int
    var title: String
    var summary: String?
    var pages: Int
    var rating: Int?
    var small: Int8
    var ratio: Double
    var isRead: Bool
    var published: Date
    var code: UUID
    var price: Decimal
    var shelf: PredicateShelf

    init(
        serial: Int, title: String, summary: String? = nil, pages: Int = 0, rating: Int? = nil, small: Int8 = 0,
        ratio: Double = 0, isRead: Bool = false, published: Date = Date(timeIntervalSinceReferenceDate: 0),
        code: UUID = UUID(), price: Decimal = 0, shelf: PredicateShelf = .fiction
    ) {
        self.serial = serial
        self.title = title
        self.summary = summary
        self.pages = pages
        self.rating = rating
        self.small = small
        self.ratio = ratio
        self.isRead = isRead
        self.published = published
        self.code = code
        self.price = price
        self.shelf = shelf
    }
}

enum PredicateFixture {
    /// The `WHERE` condition a predicate translates to, rendered for SQLite, and its bindings.
    static func sql(_ predicate: Predicate<PredicateBook>) throws -> (sql: String, bindings: [StoredValue]) {
        let entity = try #require(Schema([PredicateBook.self]).entity(for: PredicateBook.self))
        return try PredicateTranslator.translate(predicate, entity: entity).sql.render(in: SQLiteDialect())
    }

    /// A context over a fresh store of `kind` (SQLite in memory unless given) holding `books`, saved.
    static func context(_ kind: StoreKind = .sqlite, with books: [PredicateBook]) throws -> ModelContext {
        let container = try freshContainer(kind, PredicateBook.self)
        let context = ModelContext(container)
        for book in books { context.insert(book) }
        try context.save()
        return context
    }

    /// The serials the store matches and those `Predicate.evaluate` matches on the same books.
    static func matches(
        _ predicate: Predicate<PredicateBook>, in context: ModelContext
    ) throws -> (store: [Int], evaluated: [Int]) {
        let store = try context.fetch(FetchDescriptor(predicate: predicate)).map(\.serial)
        let evaluated = try context.fetch(FetchDescriptor<PredicateBook>()).filter { try predicate.evaluate($0) }.map(
            \.serial)
        return (store.sorted(), evaluated.sorted())
    }

    /// Asserts that the store and `evaluate` match the same books, and returns them.
    @discardableResult
    static func expectSameMatches(
        _ predicate: Predicate<PredicateBook>, in context: ModelContext,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [Int] {
        let (store, evaluated) = try matches(predicate, in: context)
        #expect(store == evaluated, "store vs evaluate", sourceLocation: sourceLocation)
        return store
    }
}
