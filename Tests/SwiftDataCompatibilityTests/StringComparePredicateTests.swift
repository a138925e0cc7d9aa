import Foundation
import SwiftData
import Testing

@Model final class ComparedTitle {
    var title: String

    init(title: String) {
        self.title = title
    }
}

/// `localizedCompare(_:)` and `caseInsensitiveCompare(_:)` in a `#Predicate`, as apps compare a title with a search
/// term: the store answers as Foundation's `String` methods do over the same titles.
@Suite struct StringComparePredicateTests {
    static let titles = ["apple", "Apple", "Äpfel", "banana", "Zebra", "éclair", "eclair", "10 apples", "9 apples"]

    private func context(_ kind: StoreKind) throws -> ModelContext {
        let context = ModelContext(try freshContainer(kind, ComparedTitle.self))
        for title in Self.titles { context.insert(ComparedTitle(title: title)) }
        try context.save()
        return context
    }

    @Test(arguments: StoreKind.all) func localizedCompareOrdersAsFoundation(_ kind: StoreKind) throws {
        let context = try context(kind)
        for term in ["apple", "Eclair", "B"] {
            for order in [ComparisonResult.orderedAscending, .orderedSame, .orderedDescending] {
                let predicate = #Predicate<ComparedTitle> { $0.title.localizedCompare(term) == order }
                let found = try context.fetch(FetchDescriptor(predicate: predicate)).map(\.title).sorted()
                #expect(found == Self.titles.filter { $0.localizedCompare(term) == order }.sorted(), "\(term) \(order)")
            }
        }
    }

    @Test(arguments: StoreKind.all) func caseInsensitiveCompareOrdersAsFoundation(_ kind: StoreKind) throws {
        let context = try context(kind)
        let same = ComparisonResult.orderedSame
        let predicate = #Predicate<ComparedTitle> { $0.title.caseInsensitiveCompare("APPLE") == same }
        let found = try context.fetch(FetchDescriptor(predicate: predicate)).map(\.title).sorted()
        #expect(found == ["Apple", "apple"])
    }
}
