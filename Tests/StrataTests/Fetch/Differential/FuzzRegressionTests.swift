import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

/// The disagreements the differential fuzzers found, each minimized to a fixed case.
@Suite struct FuzzRegressionTests {
    /// NaN, read from a pool so the compiler doesn't fold comparisons away.
    private let notANumber = FuzzPools.doubles.first { $0.isNaN } ?? 0

    /// A saved store of rows whose every attribute is a plain value except those `adjust` sets.
    private func context(count: Int, _ adjust: (FuzzRow) -> Void = { _ in }) throws -> (ModelContext, [FuzzRow]) {
        let container = try ModelContainer(
            for: FuzzRow.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        let rows = (0..<count).map(Self.row)
        for row in rows {
            adjust(row)
            context.insert(row)
        }
        try context.save()
        return (context, rows)
    }

    static func row(_ serial: Int) -> FuzzRow {
        FuzzRow(
            serial: serial, d: 0, f: 0, i: serial, u: 0, o: nil, s: "", t: nil, date: .distantPast, dec: 0,
            uuid: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)), data: Data(), flag: true, kind: .alpha)
    }

    private func serials(_ descriptor: FetchDescriptor<FuzzRow>, in context: ModelContext) throws -> [Int] {
        try context.fetch(descriptor).map(\.serial)
    }

    // PredicateFuzzTests, seed 22, iteration 97: `??` passed a stored NaN (the text 'NaN') on unguarded, and
    // SQLite orders text above every number.
    @Test func nanThroughNilCoalescingIsUnorderedAndUnequal() throws {
        let (context, _) = try context(count: 2) { $0.od = $0.serial == 0 ? .nan : 1 }
        let nan = notANumber
        let tiny = Double.leastNonzeroMagnitude
        #expect(try serials(FetchDescriptor(predicate: #Predicate { ($0.od ?? 0.3) > -1.0 }), in: context) == [1])
        #expect(try serials(FetchDescriptor(predicate: #Predicate { ($0.od ?? 0.3) <= 1.0 }), in: context) == [1])
        #expect(try serials(FetchDescriptor(predicate: #Predicate { ($0.od ?? tiny) != nan }), in: context) == [0, 1])
        #expect(
            try serials(FetchDescriptor(predicate: #Predicate { ($0.od ?? 0) == ($0.od ?? 0) }), in: context) == [1])
    }

    // PredicateFuzzTests, seed 5, iteration 33: a conditional's branch passed NaN on unguarded.
    @Test func nanThroughConditionalIsUnordered() throws {
        let (context, _) = try context(count: 2) { $0.d = $0.serial == 0 ? .nan : 2 }
        let tiny = Double.leastNonzeroMagnitude
        #expect(
            try serials(FetchDescriptor(predicate: #Predicate { ($0.flag ? $0.d : -1.0) >= -1.0 }), in: context) == [1])
        #expect(
            try serials(FetchDescriptor(predicate: #Predicate { ($0.flag ? $0.d : -1.0) > tiny }), in: context) == [1])
    }

    // PendingFetchFuzzTests, seed 22, iteration 36: unsaved inserts sorted by `persistentModelID` order after every
    // saved model, in the order they were inserted, as their identifiers will once saved.
    @Test func unsavedInsertsSortByIdentifierAfterSavedOnes() throws {
        let (context, _) = try context(count: 4)
        context.insert(Self.row(10))
        context.insert(Self.row(11))
        var reverse = FetchDescriptor<FuzzRow>(sortBy: [SortDescriptor(\.persistentModelID, order: .reverse)])
        reverse.fetchLimit = 3
        #expect(try serials(reverse, in: context) == [11, 10, 3])
        let forward = FetchDescriptor<FuzzRow>(sortBy: [SortDescriptor(\.persistentModelID)])
        #expect(try serials(forward, in: context) == [0, 1, 2, 3, 10, 11])
        try context.save()
        #expect(try serials(reverse, in: context) == [11, 10, 3])
    }

    // A limited fetch reads offset + limit + the changed and deleted models from the store: rows changed out of
    // the first page are replaced by the next stored ones.
    @Test func changedAndDeletedModelsLeavingThePageAreReplacedFromTheStore() throws {
        let (context, rows) = try context(count: 10)
        for row in rows.prefix(3) { row.i += 100 }
        context.delete(rows[3])
        context.insert(Self.row(20))
        var descriptor = FetchDescriptor<FuzzRow>(predicate: #Predicate { $0.i < 50 }, sortBy: [SortDescriptor(\.i)])
        descriptor.fetchLimit = 3
        descriptor.fetchOffset = 1
        #expect(try serials(descriptor, in: context) == [5, 6, 7])
        #expect(try context.fetchCount(descriptor) == 3)
        #expect(try context.fetchCount(FetchDescriptor<FuzzRow>(predicate: #Predicate { $0.i < 50 })) == 7)
        try context.delete(model: FuzzRow.self, where: #Predicate { $0.i >= 8 && $0.i < 50 })
        // The batch delete drops the matching insert (20) now and the stored rows 8 and 9 at the save.
        #expect(try context.fetchCount(FetchDescriptor<FuzzRow>(predicate: #Predicate { $0.i < 50 })) == 4)
        #expect(
            try serials(FetchDescriptor(sortBy: [SortDescriptor(\.i, order: .reverse)]), in: context) == [
                2, 1, 0, 7, 6, 5, 4,
            ])
        try context.save()
        #expect(
            try serials(FetchDescriptor(sortBy: [SortDescriptor(\.i, order: .reverse)]), in: context) == [
                2, 1, 0, 7, 6, 5, 4,
            ])
    }

    // More changed models than one statement names (500): the store reads that many more rows instead.
    @Test func manyChangedModelsLeavingThePageAreReplacedFromTheStore() throws {
        let (context, rows) = try context(count: 620)
        for row in rows.prefix(510) { row.i += 1000 }
        context.delete(rows[515])
        var descriptor = FetchDescriptor<FuzzRow>(predicate: #Predicate { $0.i < 1500 }, sortBy: [SortDescriptor(\.i)])
        descriptor.fetchLimit = 4
        descriptor.fetchOffset = 3
        #expect(try serials(descriptor, in: context) == [513, 514, 516, 517])
        descriptor.fetchOffset = 107
        #expect(try serials(descriptor, in: context) == [618, 619, 0, 1])
        #expect(try context.fetchCount(FetchDescriptor<FuzzRow>(predicate: #Predicate { $0.i < 1500 })) == 609)
    }

    // The long PendingFetchFuzzTests pass (seed 389231668): `delete(model:where:)` judged unsaved inserts with
    // `Predicate.evaluate`, which traps on integer overflow; now it throws, as the store does.
    @Test func batchDeleteOverflowingOnAnUnsavedInsertThrows() throws {
        let (context, _) = try context(count: 2)
        let big = FuzzRegressionTests.row(5)
        big.i = .max
        context.insert(big)
        #expect(throws: StrataError.self) {
            try context.delete(model: FuzzRow.self, where: #Predicate { $0.i + 1 > 0 })
        }
        #expect(!big.isDeleted)
        #expect(context.deletedModelsArray.isEmpty)
    }

    // Constant integer arithmetic was folded with `evaluate`, which traps on `Int.max + 1`: now it is folded only
    // when it doesn't overflow, and otherwise runs in the store, which throws.
    @Test func overflowingConstantArithmeticThrowsInsteadOfTrapping() throws {
        let (context, _) = try context(count: 2)
        let big = Int.max
        let zero = 0
        #expect(throws: StrataError.self) {
            try context.fetch(FetchDescriptor(predicate: #Predicate<FuzzRow> { $0.i < big + 1 }))
        }
        #expect(throws: StrataError.self) {
            try context.fetch(FetchDescriptor(predicate: #Predicate<FuzzRow> { $0.i > -(-big - 1) }))
        }
        // Division by zero, where Swift traps, is NULL in the store: the comparison holds for no row.
        #expect(try context.fetch(FetchDescriptor(predicate: #Predicate<FuzzRow> { $0.i > big / zero })).isEmpty)
        #expect(try serials(FetchDescriptor(predicate: #Predicate { $0.i < big - 1 }), in: context) == [0, 1])
    }
}
