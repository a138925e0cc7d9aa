import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

/// `#Predicate` compares Strings as Swift does, canonically equivalent forms included, checked against
/// `Predicate.evaluate` on composed, decomposed, mixed-case and numbered strings.
@Suite struct PredicateCollationTests {
    private static let titles = TrickyStrings.fixed + TrickyStrings.random(count: 80, seed: 2024)
    private static let probes = [
        "é", "e\u{301}", "éa", "e\u{301}z", "K", "\u{212A}", "Å", "fi", "file2", "file10", "E\u{301}",
    ]

    @Test(arguments: StoreKind.all) func equalityMatchesSwiftForEquivalentForms(_ kind: StoreKind) throws {
        let context = try PredicateFixture.context(
            kind, with: Self.titles.enumerated().map { PredicateBook(serial: $0, title: $1) })
        for probe in Self.probes {
            let equal = try PredicateFixture.expectSameMatches(#Predicate { $0.title == probe }, in: context)
            try PredicateFixture.expectSameMatches(#Predicate { $0.title != probe }, in: context)
            try PredicateFixture.expectSameMatches(#Predicate { [probe, "zzz"].contains($0.title) }, in: context)
            if probe == "é" { #expect(equal.count >= 2, "both \"é\" and \"e\\u{301}\" match") }
        }
        // The byte-wise comparison would miss the decomposed form.
        #expect(try PredicateFixture.sql(#Predicate { $0.title == "é" }).sql == #"("title" COLLATE STRATA_SWIFT IS ?)"#)
    }

    @Test(arguments: StoreKind.all) func orderingMatchesSwiftWhereverSwiftAnswers(_ kind: StoreKind) throws {
        let context = try PredicateFixture.context(
            kind, with: Self.titles.enumerated().map { PredicateBook(serial: $0, title: $1) })
        for probe in Self.probes {
            let (store, evaluated) = try PredicateFixture.matches(#Predicate { $0.title < probe }, in: context)
            // Only titles Swift can't order against the probe (neither <, > nor ==) may differ.
            let differing = Set(store).symmetricDifference(evaluated).map { Self.titles[$0] }
            #expect(
                differing.allSatisfy { !($0 < probe) && !(probe < $0) && $0 != probe },
                "\(probe.debugDescription): \(differing)")
        }
        let (closedStore, closedEvaluated) = try PredicateFixture.matches(
            #Predicate { ("a"..."f").contains($0.title) }, in: context)
        #expect(closedStore == closedEvaluated)
    }
}
