import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

@Suite("Aggregate fetches' SQL")
struct AggregateSQLTests {
    @Test("A grouped sum is one statement over a derived table, the sum split in halves")
    func groupedSum() throws {
        let entity = try #require(Schema([TallyExpense.self, TallyMerchant.self]).entity(for: TallyExpense.self))
        let descriptor = AggregateDescriptor(
            predicate: #Predicate<TallyExpense> { $0.cents > 0 }, groupBy: \.category,
            aggregates: .count, .sum(\.cents), .maximum(\.date))
        let plan = try AggregatePlan(descriptor, entity: entity)
        let (sql, bindings) = try SelectStatement.sqlite.aggregate(plan.request).render(in: SQLiteDialect())
        #expect(
            sql == """
                SELECT "strata_k0", count(*) AS "strata_a0", sum(("strata_v0" / ?)) AS "strata_a1", \
                sum(("strata_v0" % ?)) AS "strata_a2", max("strata_v1") AS "strata_a3" \
                FROM (SELECT "category" AS "strata_k0", "cents" AS "strata_v0", "date" AS "strata_v1" \
                FROM "TallyExpense" WHERE ("cents" > ?)) AS "strata_rows" GROUP BY "strata_k0" \
                ORDER BY "strata_k0" COLLATE STRATA_SWIFT ASC
                """)
        #expect(bindings == [.integer(1 << 32), .integer(1 << 32), .integer(0)])
    }
}
