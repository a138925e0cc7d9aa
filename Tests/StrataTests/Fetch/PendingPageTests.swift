import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

/// A limited, sorted fetch with unsaved changes returns the page the same fetch returns once they are saved: the
/// unsaved models that sort after the store's page are left out before sorting, so these cases check the models
/// at the page's edge.
@Suite("Pending changes at the edge of a fetched page")
struct PendingPageTests {
    private static let start = Date(timeIntervalSince1970: 1_700_000_000)

    /// Ten saved readings: "R0" … "R9" with 100, 110, … 190 pages; the odd ones rated by their number, the even
    /// ones unrated.
    private func savedReadings(_ kind: StoreKind) throws -> (ModelContext, [Reading]) {
        let context = ModelContext(try freshContainer(kind, Reading.self))
        for number in 0..<10 {
            context.insert(
                Reading(
                    title: "R\(number)", pages: 100 + 10 * number, isFinished: number.isMultiple(of: 3),
                    startedAt: Self.start.addingTimeInterval(Double(number) * 86_400),
                    rating: number.isMultiple(of: 2) ? nil : number))
        }
        try context.save()
        let readings = try context.fetch(FetchDescriptor<Reading>(sortBy: [SortDescriptor(\.pages)]))
        return (context, readings)
    }

    private func page(
        _ context: ModelContext, by sort: [SortDescriptor<Reading>], limit: Int, offset: Int? = nil,
        where predicate: Predicate<Reading>? = nil
    ) throws -> [String] {
        var descriptor = FetchDescriptor<Reading>(predicate: predicate, sortBy: sort)
        descriptor.fetchLimit = limit
        descriptor.fetchOffset = offset
        return try context.fetch(descriptor).map(\.title)
    }

    @Test("A change moving a row out of the page, and one moving a row into it", arguments: StoreKind.all)
    func changesAcrossTheEdge(_ kind: StoreKind) throws {
        let (context, readings) = try savedReadings(kind)
        readings[1].pages = 500 // R1 leaves the first three
        readings[8].pages = 105 // R8 enters between R0 and R2
        let expected = ["R0", "R8", "R2"]
        #expect(try page(context, by: [SortDescriptor(\.pages)], limit: 3) == expected)
        #expect(try page(context, by: [SortDescriptor(\.pages)], limit: 2, offset: 1) == ["R8", "R2"])
        try context.save()
        #expect(try page(context, by: [SortDescriptor(\.pages)], limit: 3) == expected)
    }

    @Test("A deleted row of the page is replaced by the next one", arguments: StoreKind.all)
    func deleteInThePage(_ kind: StoreKind) throws {
        let (context, readings) = try savedReadings(kind)
        context.delete(readings[1])
        readings[5].pages = 500 // a change after the page, which stays out of it
        #expect(try page(context, by: [SortDescriptor(\.pages)], limit: 3) == ["R0", "R2", "R3"])
        try context.save()
        #expect(try page(context, by: [SortDescriptor(\.pages)], limit: 3) == ["R0", "R2", "R3"])
    }

    @Test(
        "Ties with the page's last row order by when the rows were saved, unsaved ones last", arguments: StoreKind.all)
    func tiesAtTheEdge(_ kind: StoreKind) throws {
        let (context, readings) = try savedReadings(kind)
        // R2 has 120 pages and ends the first three. R9 (saved after R2) ties with it: it follows R2, out of the page.
        // R0 (saved before R2) ties with it too: it comes before R2, which then falls out of the page.
        readings[9].pages = 120
        readings[0].pages = 120
        context.insert(
            Reading(title: "New", pages: 120, isFinished: false, startedAt: Self.start, rating: nil))
        #expect(try page(context, by: [SortDescriptor(\.pages)], limit: 3) == ["R1", "R0", "R2"])
        #expect(try page(context, by: [SortDescriptor(\.pages)], limit: 5) == ["R1", "R0", "R2", "R9", "New"])
        try context.save()
        #expect(try page(context, by: [SortDescriptor(\.pages)], limit: 3) == ["R1", "R0", "R2"])
        #expect(try page(context, by: [SortDescriptor(\.pages)], limit: 5) == ["R1", "R0", "R2", "R9", "New"])
    }

    @Test("nil sort keys come first, descending ones last, across the page's edge", arguments: StoreKind.all)
    func nilKeysAtTheEdge(_ kind: StoreKind) throws {
        let (context, readings) = try savedReadings(kind)
        // By rating: R0, R2, R4, R6, R8 (nil) then R1, R3, …; the page of four ends on R6.
        readings[7].rating = nil // enters the nils, after R6 by key: just out of the page
        readings[2].rating = 4 // leaves the nils for between R3 and R5
        readings[5].rating = nil // joins the nils: R5 comes before R6
        let ascending = try page(context, by: [SortDescriptor(\.rating), SortDescriptor(\.pages)], limit: 4)
        let descending = try page(
            context, by: [SortDescriptor(\.rating, order: .reverse), SortDescriptor(\.pages)], limit: 4)
        try context.save()
        #expect(try page(context, by: [SortDescriptor(\.rating), SortDescriptor(\.pages)], limit: 4) == ascending)
        #expect(
            try page(context, by: [SortDescriptor(\.rating, order: .reverse), SortDescriptor(\.pages)], limit: 4)
                == descending)
        #expect(ascending == ["R0", "R4", "R5", "R6"])
    }

    @Test("Text keys order as the store orders them once saved, across the page's edge", arguments: StoreKind.all)
    func textKeysAtTheEdge(_ kind: StoreKind) throws {
        let (context, readings) = try savedReadings(kind)
        readings[4].title = "r4" // lowercase sorts after every "R…"
        readings[6].title = "Ŕ6" // a non-ASCII letter, after "r"
        readings[9].title = "R01" // between R0 and R1
        context.insert(Reading(title: "Q", pages: 1, isFinished: false, startedAt: Self.start))
        let filter = #Predicate<Reading> { $0.pages > 100 }
        let pending = try page(context, by: [SortDescriptor(\.title)], limit: 4, where: filter)
        let pendingEnd = try page(context, by: [SortDescriptor(\.title, order: .reverse)], limit: 3, where: filter)
        #expect(pending == ["R01", "R1", "R2", "R3"])
        try context.save()
        #expect(try page(context, by: [SortDescriptor(\.title)], limit: 4, where: filter) == pending)
        #expect(
            try page(context, by: [SortDescriptor(\.title, order: .reverse)], limit: 3, where: filter) == pendingEnd)
    }

    @Test(
        "Unsaved inserts, changes and deletes that match the page's condition are merged in, the others left out",
        arguments: StoreKind.all)
    func pendingChangesMatchingAndNot(_ kind: StoreKind) throws {
        let (context, readings) = try savedReadings(kind)
        let filter = #Predicate<Reading> { $0.pages < 175 } // R0 … R7
        readings[0].pages = 300 // stops matching
        readings[3].pages = 101 // still matches, moves to the front
        readings[8].pages = 102 // starts matching
        readings[5].rating = 1 // changed, matching where it was
        context.delete(readings[1]) // a matching row
        context.delete(readings[9]) // a row that doesn't match
        context.insert(Reading(title: "N1", pages: 103, isFinished: false, startedAt: Self.start))
        context.insert(Reading(title: "N2", pages: 400, isFinished: false, startedAt: Self.start))
        let sort = [SortDescriptor(\Reading.pages)]
        let first = try page(context, by: sort, limit: 4, where: filter)
        let middle = try page(context, by: sort, limit: 3, offset: 2, where: filter)
        let all = try page(context, by: sort, limit: 20, where: filter)
        #expect(first == ["R3", "R8", "N1", "R2"])
        #expect(middle == ["N1", "R2", "R4"])
        #expect(all == ["R3", "R8", "N1", "R2", "R4", "R5", "R6", "R7"])
        try context.save()
        #expect(try page(context, by: sort, limit: 4, where: filter) == first)
        #expect(try page(context, by: sort, limit: 3, offset: 2, where: filter) == middle)
        #expect(try page(context, by: sort, limit: 20, where: filter) == all)
    }

    @Test(
        "More changed rows than one statement can name: the page still comes from a limited read",
        arguments: StoreKind.all)
    func moreChangesThanAStatementNames(_ kind: StoreKind) throws {
        let context = ModelContext(try freshContainer(kind, Reading.self))
        let count = StoreLimits.keysPerStatement + 100
        for number in 0..<count {
            context.insert(Reading(title: "R\(number)", pages: number, isFinished: false, startedAt: Self.start))
        }
        try context.save()
        let readings = try context.fetch(FetchDescriptor<Reading>(sortBy: [SortDescriptor(\.pages)]))
        // Every row but the last 50 leaves the front: the page is the first rows the store holds after them.
        for reading in readings.prefix(count - 50) { reading.pages += 10_000 }
        context.delete(readings[count - 50])
        let pending = try page(context, by: [SortDescriptor(\.pages)], limit: 3, offset: 2)
        #expect(pending == ["R\(count - 47)", "R\(count - 46)", "R\(count - 45)"])
        try context.save()
        #expect(try page(context, by: [SortDescriptor(\.pages)], limit: 3, offset: 2) == pending)
    }

    @Test(
        "A store leaves out excluded keys as it reads, counting the offset and limit in the rows kept",
        arguments: StoreKind.all)
    func storeSkipsExcludedKeys(_ kind: StoreKind) throws {
        let (context, readings) = try savedReadings(kind)
        let keys = try readings.map { try #require($0.persistentModelID.primaryKey) }
        let entity = try #require(context.container.schema.entity(forType: Reading.self))
        let pages = try #require(entity.property(named: "pages"))
        var request = StoreFetch(
            entity: entity, columns: nil,
            ordering: [QueryOrdering(expression: .column(pages.name), ascending: true, collation: .binary)],
            limit: 3, offset: 1)
        request.excludedKeys = [keys[0], keys[2], keys[5]]
        var read: [Int64] = []
        try context.container.store.fetch(request) { read.append($0.int64(at: 0)) }
        // Kept in order: R1, R3, R4, R6, …; the offset skips R1.
        #expect(read == [keys[3], keys[4], keys[6]])
    }
}
