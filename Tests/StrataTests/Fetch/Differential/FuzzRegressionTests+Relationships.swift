import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

/// The disagreements the fuzzers found once rows had related items: aggregates and arithmetic over NaN and
/// infinities in format predicates, and the evaluator failing where the store answers.
extension FuzzRegressionTests {
    /// A saved store of one row per list of item weights, serials counting from 0.
    private func rows(weights: [[Double]], in kind: StoreKind = .sqlite) throws -> ModelContext {
        let context = ModelContext(try freshContainer(kind, FuzzRow.self))
        for (serial, list) in weights.enumerated() {
            let row = FuzzRow(
                serial: serial, d: 0, f: 0, i: 0, u: 0, o: nil, s: "", t: nil, date: .distantPast, dec: 0,
                uuid: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)), data: Data(), flag: true,
                kind: .alpha)
            row.items = list.enumerated().map {
                FuzzItem(serial: serial * 10 + $0.offset, weight: $0.element, n: 0, label: "", note: nil)
            }
            context.insert(row)
        }
        try context.save()
        return context
    }

    private func serials(_ format: String, _ arguments: any Sendable..., in context: ModelContext) throws -> [Int] {
        let descriptor = FetchDescriptor<FuzzRow>(predicate: FormatPredicate(format: format, argumentArray: arguments))
        return try context.fetch(descriptor).map(\.serial).sorted()
    }

    // FormatFuzzTests, seed 1: SQLite's sum skipped the stored text 'NaN' and its @max ('NaN', above every number)
    // passed `>`; a NaN aggregate is now unordered, as in Swift.
    @Test(arguments: StoreKind.all) func aggregatesOverNaNAreUnordered(_ kind: StoreKind) throws {
        let nan = FuzzPools.doubles[0]
        let context = try rows(weights: [[nan, 1], [1, 2], []], in: kind)
        #expect(try serials("items.@sum.weight > 0", in: context) == [1])
        #expect(try serials("items.@sum.weight != 3", in: context) == [0, 2])
        #expect(try serials("NOT (items.@avg.weight < 5)", in: context) == [0, 2])
        #expect(try serials("items.@max.weight > 0", in: context) == [1])
        #expect(try serials("items.@min.weight == 1", in: context) == [0, 1])
        #expect(try serials("items.@sum.weight == 0", in: context) == [2])
    }

    // FormatFuzzTests, seed 1: the related rows' order decided an overflowing sum (SQLite and the evaluator visit
    // them differently); the sum is now exact and rounded once.
    // FormatFuzzTests on PostgreSQL, seed 1: float8 sum added in scan order ([0.3, M, -M] gave 0). On PostgreSQL a
    // sum past double's range fails the fetch instead of giving an infinity (a refusal, never another answer).
    @Test(arguments: StoreKind.all) func floatingSumsAreExactWhateverTheOrder(_ kind: StoreKind) throws {
        let big = Double.greatestFiniteMagnitude
        let context = try rows(
            weights: [
                [big, big, -big], [-big, 0.3, big, -big], [.infinity, -.infinity], [1e100, 1, -1e100], [0.1, 0.2, 0.3],
                [0.3, big, -big], [.leastNonzeroMagnitude, .leastNormalMagnitude],
            ], in: kind)
        #expect(try serials("items.@sum.weight == %@", big, in: context) == [0])
        #expect(try serials("items.@sum.weight == %@", -big, in: context) == [1])
        #expect(try serials("items.@sum.weight == 1", in: context) == [3])
        #expect(try serials("items.@sum.weight != 0", in: context) == [0, 1, 2, 3, 4, 5, 6])
        #expect(try serials("items.@sum.weight == 0.3", in: context) == [5])
        #expect(
            try serials("items.@sum.weight == %@", Double.leastNonzeroMagnitude + .leastNormalMagnitude, in: context)
                == [6])
        let overflowing = try rows(weights: [[big, big]], in: kind)
        if kind == .sqlite {
            #expect(try serials("items.@sum.weight > %@", big, in: overflowing) == [0])
        } else {
            #expect(throws: StrataError.self) { try serials("items.@sum.weight > %@", big, in: overflowing) }
        }
        #expect(try serials("items.@sum.weight < %@ AND items.@sum.weight > %@", -big, big, in: context).isEmpty)
        #expect(try serials("items.@sum.weight == 0.6", in: context) == [4])
        #expect(try serials("items.@avg.weight == %@", 0.6 / 3, in: context) == [4])
    }

    // FormatFuzzTests, seed 5: `d * 0` with d = -∞ is NaN in Swift, and SQLite's NULL made `NOT (d * 0 > -1)`
    // unknown; format arithmetic on floating-point values now follows IEEE.
    @Test(arguments: StoreKind.all) func formatArithmeticFollowsIEEE(_ kind: StoreKind) throws {
        let context = try rows(weights: [[], [], []], in: kind)
        for (serial, d) in [(0, -Double.infinity), (1, 1), (2, Double.nan)] {
            try context.fetch(FetchDescriptor<FuzzRow>(predicate: #Predicate { $0.serial == serial })).first?.d = d
        }
        try context.save()
        #expect(try serials("d * 0 > -1", in: context) == [1])
        #expect(try serials("NOT (d * 0 > -1)", in: context) == [0, 2])
        #expect(try serials("d / 0 > 1", in: context) == [1])
        #expect(try serials("d - d == 0", in: context) == [1])
        #expect(try serials("d + 1 != d + 1", in: context) == [2])
    }

    // FormatFuzzTests, seed 22: the evaluator failed on an overflowing integer sum where SQLite stopped at the
    // unknown other operand of AND and excluded the row.
    @Test func evaluatorAnswersWhereAnUnknownOperandStopsTheStore() throws {
        let context = try rows(weights: [[1, 2]])
        let row = try #require(try context.fetch(FetchDescriptor<FuzzRow>()).first)
        for (index, item) in row.items.enumerated() { item.n = index == 0 ? .max : 1 }
        try context.save()
        let predicate = FormatPredicate(format: "partner.label BEGINSWITH 'x' AND items.@sum.n == 1")
        #expect(try context.fetch(FetchDescriptor<FuzzRow>(predicate: predicate)).isEmpty)
        let entity = try #require(context.container.schema.entity(for: FuzzRow.self))
        let condition = try FormatTranslator.translate(predicate, entity: entity)
        #expect(try !QueryEvaluator(entity: entity, backingData: row.persistentBackingData).isSatisfied(condition))
        #expect(throws: (any Error).self) {
            try context.fetch(FetchDescriptor<FuzzRow>(predicate: FormatPredicate(format: "items.@sum.n == 1")))
        }
    }
}

extension FuzzRegressionTests {
    // PredicateFuzzTests on PostgreSQL, seed 22: libpq sent text parameters up to their first NUL, so "a\0b" was
    // stored as "a" and "\0" as "" without an error; PostgreSQL text can't hold NUL, so the save now throws
    // and a NUL constant in a predicate is refused.
    @Test(arguments: StoreKind.all) func textHoldingNULIsKeptOrRefusedNeverCut(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, FuzzRow.self)
        let context = ModelContext(container)
        let row = Self.row(0)
        row.s = "a\u{0}b"
        context.insert(row)
        let nul = "a\u{0}b"
        let descriptor = FetchDescriptor<FuzzRow>(predicate: #Predicate { $0.s == nul })
        switch kind {
        case .sqlite:
            try context.save()
            #expect(try ModelContext(container).fetch(FetchDescriptor<FuzzRow>()).map(\.s) == ["a\u{0}b"])
            #expect(try ModelContext(container).fetch(descriptor).count == 1)
        case .postgres:
            #expect(throws: StrataError.self) { try context.save() }
            #expect(try ModelContext(container).fetchCount(FetchDescriptor<FuzzRow>()) == 0)
            #expect(throws: SwiftDataError.self) { try ModelContext(container).fetch(descriptor) }
        }
    }
}

extension FuzzRegressionTests {
    // FormatFuzzTests run against PostgreSQL, seed 22: strata_contains and strata_endswith answered true for an
    // empty needle before looking at a NULL text (a nil partner's label); Strata's functions give NULL for NULL.
    @Test(arguments: StoreKind.all) func emptyNeedleInNilTextMatchesNothing(_ kind: StoreKind) throws {
        let context = try rows(weights: [[], []], in: kind)
        let labelled = try #require(
            try context.fetch(FetchDescriptor<FuzzRow>(predicate: #Predicate { $0.serial == 1 })).first)
        labelled.partner = FuzzItem(serial: 10, weight: 0, n: 0, label: "x", note: nil)
        try context.save()
        #expect(try serials("partner.label CONTAINS ''", in: context) == [1])
        #expect(try serials("partner.label ENDSWITH ''", in: context) == [1])
        #expect(try serials("NOT (partner.label CONTAINS '')", in: context) == [0])
    }
}

extension FuzzRegressionTests {
    // FormatFuzzTests on PostgreSQL, seed 22: PostgreSQL summed bigints as numeric and answered past Int64 where
    // SQLite and the evaluator fail; an integer @sum is now exact and fails only outside Int64 (SQLite's own sum
    // also fails where a partial sum overflows: a refusal).
    @Test(arguments: StoreKind.all) func integerSumsFailOnlyOutsideInt64(_ kind: StoreKind) throws {
        let context = try rows(weights: [[0, 0, 0], [0, 0]], in: kind)
        let rows = try context.fetch(FetchDescriptor<FuzzRow>(sortBy: [SortDescriptor(\.serial)]))
        for (item, n) in zip(rows[0].items.sorted { $0.serial < $1.serial }, [Int.max, 1, -1]) { item.n = n }
        for item in rows[1].items { item.n = .max }
        try context.save()
        let big = Int.max
        #expect(throws: StrataError.self) { try serials("items.@sum.n > 0", in: context) }
        let first = FormatPredicate(format: "serial == 0 AND items.@sum.n == %@", big)
        if kind == .postgres {
            #expect(try context.fetch(FetchDescriptor<FuzzRow>(predicate: first)).map(\.serial) == [0])
        }
        let entity = try #require(context.container.schema.entity(for: FuzzRow.self))
        let condition = try FormatTranslator.translate(first, entity: entity)
        #expect(try QueryEvaluator(entity: entity, backingData: rows[0].persistentBackingData).isSatisfied(condition))
    }
}
