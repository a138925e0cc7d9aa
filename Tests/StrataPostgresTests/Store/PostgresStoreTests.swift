import Foundation
import Strata
import StrataTestSupport
import Testing

@testable import StrataPostgres
@testable import StrataTestFixtures

@Suite("PostgresStore: smoke", .needsPostgreSQL)
struct PostgresStoreSmokeTests {
    @Test("Insert, fetch with a predicate and a sort, update, delete, reopen")
    func roundTrip() throws {
        let store = TestStore(.postgres)
        let context = ModelContext(try store.container(Reading.self))
        let start = Date(timeIntervalSinceReferenceDate: 123.456789012)
        context.insert(Reading(title: "Dune", pages: 412, isFinished: true, startedAt: start, rating: 5))
        context.insert(Reading(title: "Kindred", pages: 264, isFinished: false, startedAt: start))
        try context.save()
        let long = try context.fetch(
            FetchDescriptor<Reading>(predicate: #Predicate { $0.pages > 300 }, sortBy: [SortDescriptor(\.title)]))
        #expect(long.map(\.title) == ["Dune"])
        long[0].pages = 500
        try context.save()
        let reopened = ModelContext(try store.container(Reading.self))
        let all = try reopened.fetch(FetchDescriptor<Reading>(sortBy: [SortDescriptor(\.title)]))
        #expect(all.map(\.pages) == [500, 264])
        #expect(all.map(\.startedAt) == [start, start])
        #expect(all.map(\.rating) == [5, nil])
    }
}
