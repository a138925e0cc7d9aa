import Foundation
import Strata
import Testing
@testable import StrataTestFixtures

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

    /// `Double`/`Float` keys: Foundation's comparator calls NaN equal to every number, which is no strict weak
    /// order, so `sort(using:)` leaves NaN wherever its algorithm happens to. The store (and the merge of unsaved
    /// changes) puts NaN after +infinity ascending, before it descending; without NaN both agree with Foundation.
    @Test func floatingKeysOrderNaNAfterEveryNumber() throws {
        var generator = PredicateFuzzTests.Generator(state: PredicateFuzzTests.seed &+ 7)
        let (context, rows) = try PredicateFuzzTests.fixture(count: 100, using: &generator)
        for order in [SortOrder.forward, .reverse] {
            let byD = [SortDescriptor(\FuzzRow.d, order: order), SortDescriptor(\FuzzRow.serial)]
            let byF = [SortDescriptor(\FuzzRow.f, order: order), SortDescriptor(\FuzzRow.serial)]
            for (name, sort, isNaN) in [
                ("d", byD, { (row: FuzzRow) in row.d.isNaN }), ("f", byF, { (row: FuzzRow) in row.f.isNaN }),
            ] {
                let store = try context.fetch(FetchDescriptor(sortBy: sort)).map(\.serial)
                let numbers = rows.filter { !isNaN($0) }.sorted(using: sort).map(\.serial)
                let nans = rows.filter(isNaN).map(\.serial)
                #expect(!nans.isEmpty && !numbers.isEmpty)
                #expect(store == (order == .forward ? numbers + nans : nans + numbers), "\(name) \(order)")
            }
        }
    }
}
