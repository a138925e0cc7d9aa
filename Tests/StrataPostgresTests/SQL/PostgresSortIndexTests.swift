import Foundation
import Strata
import StrataTestSupport
import Testing

@testable import StrataPostgres
@testable import StrataTestFixtures

/// A model sorted by an indexed non-optional attribute, with an optional one beside it.
@Model
final class RankedEntry {
    #Index<RankedEntry>([\.score])

    var label: String
    var score: Double
    var bonus: Double?

    init(label: String, score: Double, bonus: Double? = nil) {
        self.label = label
        self.score = score
        self.bonus = bonus
    }
}

@Suite("PostgresStore: sorts an index can give", .needsPostgreSQL)
struct PostgresSortIndexTests {
    @Test("A sort + limit on an #Index'ed non-optional attribute reads the index instead of sorting every match")
    func sortOnIndexedAttributeUsesIndex() throws {
        let store = TestStore(.postgres)
        let context = ModelContext(try store.container(RankedEntry.self))
        for index in 0..<20 { context.insert(RankedEntry(label: "e\(index)", score: Double(index % 5))) }
        try context.save()
        var descriptor = FetchDescriptor<RankedEntry>(
            predicate: #Predicate { $0.score > 1 }, sortBy: [SortDescriptor(\.score)])
        descriptor.fetchLimit = 3
        let entity = try #require(context.container.schema.entity(for: RankedEntry.self))
        let writer = PostgresQueryWriter()
        let (sql, bindings) = try PostgresSelect(writer: writer).rows(try FetchPlan(descriptor, entity: entity).request)
            .render(in: writer.dialect)
        // With a few rows any plan is cheap: the settings leave a full sort only where no index can give the order.
        let url = try #require(PostgresTestServer.url)
        let connection = try PostgresConnection(
            conninfo: url.absoluteString,
            settings: [
                "SET search_path TO \"\(store.databaseSchema)\"", "SET enable_seqscan = off",
                "SET enable_bitmapscan = off", "SET enable_sort = off",
            ])
        let result = try connection.query("EXPLAIN " + sql, bindings)
        let plan = (0..<result.count).compactMap { result.text(row: $0, column: 0) }
        #expect(plan.contains { $0.contains("Index Scan using \"RankedEntry_score_index\"") }, "plan: \(plan)")
        // A full sort node reads "Sort  (cost=…"; sorting ties within the index order ("Incremental Sort") is fine.
        #expect(!plan.contains { $0.contains("Sort  (") && !$0.contains("Incremental Sort") }, "plan: \(plan)")
        // Ties come back in insertion (primary key) order, as on SQLite.
        #expect(try context.fetch(descriptor).map(\.label) == ["e2", "e7", "e12"])
    }

    @Test("Sorting by an optional attribute still puts nil first ascending and last descending")
    func optionalSortKeepsNilPlacement() throws {
        let store = TestStore(.postgres)
        let context = ModelContext(try store.container(RankedEntry.self))
        context.insert(RankedEntry(label: "a", score: 1, bonus: 2))
        context.insert(RankedEntry(label: "b", score: 1))
        context.insert(RankedEntry(label: "c", score: 1, bonus: 1))
        try context.save()
        #expect(
            try context.fetch(FetchDescriptor<RankedEntry>(sortBy: [SortDescriptor(\.bonus)])).map(\.label) == [
                "b", "c", "a",
            ])
        #expect(
            try context.fetch(FetchDescriptor<RankedEntry>(sortBy: [SortDescriptor(\.bonus, order: .reverse)])).map(
                \.label)
                == ["a", "c", "b"])
    }
}
