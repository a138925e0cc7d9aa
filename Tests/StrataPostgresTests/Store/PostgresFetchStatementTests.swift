import Foundation
import Strata
import StrataTestSupport
import Testing

@testable import StrataPostgres
@testable import StrataTestFixtures

/// A PostgreSQL fetch whose text predicate the store answers in a pre-pass holds that snapshot's answers in its
/// bound values, so its statement is rendered for every run, never kept (`PostgresStore.withStatement`).
@Suite("PostgresStore: fetch statements with text lookups", .needsPostgreSQL)
struct PostgresFetchStatementTests {
    @Test("A fetch whose text predicate PostgreSQL answers in a pre-pass is rendered each time, with fresh answers")
    func textLookupsAreNotKept() throws {
        let store = TestStore(.postgres)
        let container = try store.container(TripBase.Trip.self)
        let context = ModelContext(container)
        context.insert(TripBase.Trip(name: "Ärö", days: 5))
        context.insert(TripBase.Trip(name: "Oslo", days: 2))
        try context.save()
        let cache = try #require(container.store as? PostgresStore).fetchStatements
        let kept = cache.count
        let descriptor = FetchDescriptor<TripBase.Trip>(
            predicate: #Predicate { $0.name.localizedStandardContains("aro") })
        #expect(try ModelContext(container).fetch(descriptor).map(\.name) == ["Ärö"])
        #expect(cache.count == kept)
        let writer = ModelContext(container)
        writer.insert(TripBase.Trip(name: "Aröe", days: 6))
        try writer.save()
        #expect(try ModelContext(container).fetch(descriptor).map(\.name).sorted() == ["Aröe", "Ärö"])
        #expect(cache.count == kept)
    }
}
