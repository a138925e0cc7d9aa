import Foundation
import StrataTestSupport
import Testing

@testable import Strata
@testable import StrataTestFixtures

@Suite("Aggregate fetches give one answer on every store")
struct AggregateSemanticsTests {
    @Test("NaN and the infinities in floating-point sums, averages and extremes", arguments: StoreKind.all)
    func floatingPoint(_ kind: StoreKind) throws {
        let context = ModelContext(try freshContainer(kind, TallyExpense.self, TallyMerchant.self))
        let amounts: [(String, Double)] = [
            ("finite", 1.5), ("finite", 2.25), ("nan", 1.5), ("nan", .nan), ("nan", 2), ("infinite", .infinity),
            ("infinite", -.infinity), ("infinite", 3), ("onlyNaN", .nan), ("onlyNaN", .nan),
        ]
        for (category, amount) in amounts {
            context.insert(TallyExpense(category: category, kind: .food, cents: 0, amount: amount))
        }
        try context.save()
        let groups = try context.fetch(
            AggregateDescriptor(
                groupBy: \TallyExpense.category,
                aggregates: .sum(\.amount), .average(\.amount), .minimum(\.amount), .maximum(\.amount)))
        let byKey = Dictionary(uniqueKeysWithValues: groups.map { ($0.key, $0.value) })
        let finite = try #require(byKey["finite"])
        #expect(finite.0 == 3.75 && finite.1 == 1.875 && finite.2 == 1.5 && finite.3 == 2.25)
        let nan = try #require(byKey["nan"])
        #expect(nan.0.isNaN && nan.1?.isNaN == true && nan.2 == 1.5 && nan.3?.isNaN == true)
        let infinite = try #require(byKey["infinite"])
        #expect(infinite.0.isNaN && infinite.2 == -.infinity && infinite.3 == .infinity)
        let onlyNaN = try #require(byKey["onlyNaN"])
        #expect(onlyNaN.2?.isNaN == true && onlyNaN.3?.isNaN == true)
    }

    @Test("Int8 keys group and sort by value, and sums of Int8 fit Int8", arguments: StoreKind.all)
    func integerKeys(_ kind: StoreKind) throws {
        let context = ModelContext(try freshContainer(kind, TallyExpense.self, TallyMerchant.self))
        for small in [Int8(-3), 5, -3, 127, -128, 5, 5] {
            context.insert(TallyExpense(category: "x", kind: .travel, cents: Int(small) * 10, small: small))
        }
        try context.save()
        let groups = try context.fetch(
            AggregateDescriptor(groupBy: \TallyExpense.small, aggregates: .count, .sum(\.cents), .sum(\.small)))
        #expect(groups.map(\.key) == [-128, -3, 5, 127])
        #expect(groups.map(\.value.0) == [1, 2, 3, 1])
        #expect(groups.map(\.value.1) == [-1280, -60, 150, 1270])
        #expect(groups.map(\.value.2) == [-128, -6, 15, 127])
    }

    @Test("SQLite and PostgreSQL give the same groups for the same data", .needsPostgreSQL)
    func differential() throws {
        let data = TallyData(count: 400)
        var answers: [[String]] = []
        for kind in StoreKind.allCases {
            let context = ModelContext(try freshContainer(kind, TallyExpense.self, TallyMerchant.self))
            try data.save(in: context)
            let city: KeyPath<TallyExpense, String?> = \.merchant?.city
            let byCategory = try context.fetch(
                AggregateDescriptor(
                    groupBy: \TallyExpense.category, \.kind,
                    aggregates: .count, .sum(\.cents), .average(\.tip), .maximum(\.date)))
            let byCity = try context.fetch(
                AggregateDescriptor(
                    groupBy: city, aggregates: .sum(\.amount), .minimum(\.category), .countDistinct(\.tip)))
            let byTip = try context.fetch(
                AggregateDescriptor(
                    groupBy: \TallyExpense.tip, aggregates: .count,
                    sortBy: [AggregateSortDescriptor(.count, order: .reverse)]))
            answers.append(
                byCategory.map { "\($0.key) \($0.value)" } + byCity.map { "\($0.key as Any) \($0.value)" }
                    + byTip.map { "\($0.key as Any) \($0.value)" })
        }
        #expect(answers[0] == answers[1])
    }
}
