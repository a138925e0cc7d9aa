import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

@Suite("Aggregate fetches keep the groups havingPredicate keeps")
struct AggregateHavingTests {
    /// One category's totals computed in Swift.
    private struct Totals {
        var count: Int
        var cents: Int
        var average: Double
        var latest: Date
        var amount: Double
    }

    private static func oracle(_ data: TallyData) -> [String: Totals] {
        Dictionary(grouping: data.rows, by: \.category).mapValues { rows in
            let cents = rows.map(\.cents).reduce(0, +)
            return Totals(
                count: rows.count, cents: cents, average: Double(cents) / Double(rows.count),
                latest: rows.map(\.date).max() ?? .distantPast, amount: rows.map(\.amount).reduce(0, +))
        }
    }

    @Test("Counts, exact sums, averages, dates and floating-point sums, combined", arguments: StoreKind.all)
    func comparisonsMatchSwift(_ kind: StoreKind) throws {
        let data = TallyData(count: 300)
        let context = try data.savedContext(kind)
        let oracle = Self.oracle(data)
        let median = oracle.values.map(\.cents).sorted()[oracle.count / 2]
        let latest = oracle.values.map(\.latest).sorted()[oracle.count / 2]
        let cases: [(AggregatePredicate<TallyExpense>, (Totals) -> Bool)] = [
            (.count > 50, { $0.count > 50 }),
            (.count <= 50, { $0.count <= 50 }),
            (.sum(\TallyExpense.cents) >= median, { $0.cents >= median }),
            (.sum(\TallyExpense.cents) != median && .count >= 45, { $0.cents != median && $0.count >= 45 }),
            (!(.sum(\TallyExpense.cents) < median) || .count == 1, { !($0.cents < median) || $0.count == 1 }),
            (.average(\TallyExpense.cents) > 4_900, { $0.average > 4_900 }),
            (.maximum(\TallyExpense.date) < latest, { $0.latest < latest }),
            (.sum(\TallyExpense.amount) > 10_000, { $0.amount > 10_000 }),
        ]
        for (index, (having, keeps)) in cases.enumerated() {
            var descriptor = AggregateDescriptor(groupBy: \TallyExpense.category, aggregates: .count)
            descriptor.havingPredicate = having
            let kept = try context.fetch(descriptor).map(\.key)
            #expect(kept == oracle.filter { keeps($0.value) }.keys.sorted(), "case \(index)")
        }
    }

    @Test("The limit and offset count the groups kept, in the descriptor's order", arguments: StoreKind.all)
    func limitCountsKeptGroups(_ kind: StoreKind) throws {
        let data = TallyData(count: 300)
        let context = try data.savedContext(kind)
        var descriptor = AggregateDescriptor(
            groupBy: \TallyExpense.category, aggregates: .sum(\.cents),
            sortBy: [AggregateSortDescriptor(.sum(\TallyExpense.cents), order: .reverse)])
        descriptor.havingPredicate = .count > 45
        descriptor.fetchLimit = 2
        descriptor.fetchOffset = 1
        let expected = Self.oracle(data).filter { $0.value.count > 45 }.sorted { $0.value.cents > $1.value.cents }
            .dropFirst().prefix(2).map { "\($0.key) \($0.value.cents)" }
        #expect(try context.fetch(descriptor).map { "\($0.key) \($0.value)" } == expected)
    }

    @Test("NaN and nil compare as Swift compares them", arguments: StoreKind.all)
    func nanAndNil(_ kind: StoreKind) throws {
        let context = ModelContext(try freshContainer(kind, TallyExpense.self, TallyMerchant.self))
        for (category, amount, tip) in [("a", 1.5, 3), ("a", Double.nan, 4), ("b", 2.5, nil), ("c", -1.0, 5)] {
            context.insert(TallyExpense(category: category, kind: .food, cents: 1, tip: tip, amount: amount))
        }
        try context.save()
        func kept(_ having: AggregatePredicate<TallyExpense>) throws -> [String] {
            var descriptor = AggregateDescriptor(groupBy: \TallyExpense.category, aggregates: .count)
            descriptor.havingPredicate = having
            return try context.fetch(descriptor).map(\.key)
        }
        // Group a's sum is NaN: unordered, equal to nothing, so only negations keep it.
        #expect(try kept(.sum(\TallyExpense.amount) > 0) == ["b"])
        #expect(try kept(!(.sum(\TallyExpense.amount) > 0)) == ["a", "c"])
        #expect(try kept(.sum(\TallyExpense.amount) != 2.5) == ["a", "c"])
        #expect(try kept(.maximum(\TallyExpense.amount) == .nan) == [])
        #expect(try kept(.maximum(\TallyExpense.amount) != .nan) == ["a", "b", "c"])
        #expect(try kept(.minimum(\TallyExpense.amount) < 2) == ["a", "c"])
        // Group b has no tip: its average is nil, which matches no comparison (false, not unknown, so a negated
        // comparison keeps it).
        #expect(try kept(.average(\TallyExpense.tip) > 3) == ["a", "c"])
        #expect(try kept(.average(\TallyExpense.tip) <= 3.5) == ["a"])
        #expect(try kept(!(.average(\TallyExpense.tip) > 3.5)) == ["a", "b"])
        #expect(try kept(.sum(\TallyExpense.tip) == 0) == ["b"])
    }

    @Test("A minimum or maximum of text can't be compared", arguments: StoreKind.all)
    func textIsRefused(_ kind: StoreKind) throws {
        let context = ModelContext(try freshContainer(kind, TallyExpense.self, TallyMerchant.self))
        var descriptor = AggregateDescriptor(groupBy: \TallyExpense.kind, aggregates: .count)
        descriptor.havingPredicate = .minimum(\TallyExpense.category) > "m"
        do {
            _ = try context.fetch(descriptor)
            Issue.record("a comparison of text was accepted")
        } catch {
            guard case .invalidAggregate(let entity, let property, _)? = StrataError(error) else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect("\(entity).\(property)" == "TallyExpense.category")
        }
    }

    @Test("The grouped select is filtered in a derived table")
    func sql() throws {
        let entity = try #require(Schema([TallyExpense.self, TallyMerchant.self]).entity(for: TallyExpense.self))
        var descriptor = AggregateDescriptor(groupBy: \TallyExpense.category, aggregates: .count)
        descriptor.havingPredicate = .count > 3 && .sum(\TallyExpense.cents) >= 100
        descriptor.fetchLimit = 5
        let plan = try AggregatePlan(descriptor, entity: entity)
        let (sql, bindings) = try SelectStatement.sqlite.aggregate(plan.request).render(in: SQLiteDialect())
        #expect(
            sql == """
                SELECT * FROM (SELECT "strata_k0", count(*) AS "strata_a0", count(*) AS "strata_a1", \
                (coalesce(sum(("strata_v0" / ?)), 0) * 4294967296 + coalesce(sum(("strata_v0" % ?)), 0)) \
                AS "strata_a2" FROM (SELECT "category" AS "strata_k0", "cents" AS "strata_v0" \
                FROM "TallyExpense") AS "strata_rows" GROUP BY "strata_k0") AS "strata_groups" \
                WHERE (("strata_a1" > ?) AND ("strata_a2" >= ?)) \
                ORDER BY "strata_k0" COLLATE STRATA_SWIFT ASC LIMIT ? OFFSET ?
                """)
        #expect(
            bindings == [.integer(1 << 32), .integer(1 << 32), .integer(3), .integer(100), .integer(5), .integer(0)])
    }
}
