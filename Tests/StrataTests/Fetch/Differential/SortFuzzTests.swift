import Foundation
import Strata
import Testing

/// `SortDescriptor`s run in the store order rows of awkward values as Foundation's `sort(using:)` orders them in
/// memory (ties broken by serial).
@Suite struct SortFuzzTests {
    private static func descriptors(_ order: SortOrder) -> [(String, SortDescriptor<FuzzRow>)] {
        [
            ("i", SortDescriptor(\.i, order: order)),
            ("u", SortDescriptor(\.u, order: order)),
            ("o", SortDescriptor(\.o, order: order)),
            ("date", SortDescriptor(\.date, order: order)),
            ("dec", SortDescriptor(\.dec, order: order)),
            // swift-corelibs Foundation has no localized string comparators: `String` sorts by Swift's `<`.
            ("s", SortDescriptor(\.s, order: order)),
            ("t", SortDescriptor(\.t, order: order)),
        ]
    }

    @Test func storeSortsLikeFoundation() throws {
        var generator = PredicateFuzzTests.Generator(state: PredicateFuzzTests.seed)
        let (context, rows) = try PredicateFuzzTests.fixture(count: 40, using: &generator)
        for order in [SortOrder.forward, .reverse] {
            for (name, descriptor) in Self.descriptors(order) {
                let sort = [descriptor, SortDescriptor(\FuzzRow.serial)]
                let store = try context.fetch(FetchDescriptor(sortBy: sort)).map(\.serial)
                let memory = rows.sorted(using: sort).map(\.serial)
                #expect(store == memory, "\(name) \(order), seed \(PredicateFuzzTests.seed)")
            }
        }
    }
}
