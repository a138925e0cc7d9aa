import Foundation
import Strata
import Testing
@testable import StrataTestFixtures

/// Runs generated predicates in the store and through `Predicate.evaluate` on the same 200 random books and
/// expects the same matches.
@Suite struct PredicateDifferentialTests {
    /// A small deterministic generator (SplitMix64), so a failure reproduces.
    private struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var mixed = state
            mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
            return mixed ^ (mixed >> 31)
        }
    }

    private static let words = [
        "", "a", "Dune", "dune", "Café", "Cafe\u{301}", "👨‍👩‍👧", "straße", "👨", "\u{301}", "file2", "file10", "Le Guin",
        "ünïcode",
    ]

    private static func books(using generator: inout Generator) -> [PredicateBook] {
        (0..<200).map { serial in
            let title = (0..<Int.random(in: 1...2, using: &generator))
                .map { _ in words.randomElement(using: &generator) ?? "" }.joined(separator: " ")
            return PredicateBook(
                serial: serial, title: title,
                summary: Bool.random(using: &generator) ? nil : words.randomElement(using: &generator),
                pages: Int.random(in: -50...50, using: &generator),
                rating: Bool.random(using: &generator) ? nil : Int.random(in: 0...5, using: &generator),
                small: Int8.random(in: -10...10, using: &generator),
                ratio: Double(Int.random(in: -40...40, using: &generator)) / 8,
                isRead: Bool.random(using: &generator),
                shelf: PredicateShelf.allCases.randomElement(using: &generator) ?? .fiction)
        }
    }

    /// Predicate templates over a random integer `k` (never 0) and a random word `w`.
    private static let templates: [@Sendable (Int, String) -> Predicate<PredicateBook>] = [
        { k, _ in #Predicate { $0.pages + k > 2 * k } },
        { k, _ in #Predicate { $0.pages / k == 1 || $0.pages % k == -1 } },
        { k, _ in
            let bound = Int8(k); return #Predicate { -$0.small * 3 < bound }
        },
        { k, _ in
            let divisor = Double(k); return #Predicate { $0.ratio / divisor >= 0.5 }
        },
        { k, _ in #Predicate { ($0.rating ?? k) > 2 } },
        { k, _ in #Predicate { ($0.summary?.count ?? k) == 4 } },
        { k, w in #Predicate { if let summary = $0.summary { summary.contains(w) } else { $0.pages > k } } },
        { k, _ in #Predicate { ($0.isRead ? $0.pages : -$0.pages) > k } },
        { _, w in #Predicate { $0.title.contains(w) && !$0.title.starts(with: w) } },
        { _, w in #Predicate { $0.title.localizedStandardContains(w) } },
        { k, w in #Predicate { [w, "Dune"].contains($0.title) || (k...(k + 20)).contains($0.pages) } },
        { k, _ in #Predicate { (k..<(k + 5)).contains($0.pages) && $0.title.count > 4 } },
        { _, w in #Predicate { $0.summary == w || $0.summary == nil } },
        { k, _ in
            let target: Int? = k * 3; return #Predicate { $0.rating.flatMap { rating in rating * k } == target }
        },
    ]

    @Test(arguments: StoreKind.all) func storeAndEvaluateAgree(_ kind: StoreKind) throws {
        var generator = Generator(state: 2026)
        let context = try PredicateFixture.context(kind, with: Self.books(using: &generator))
        var matched = 0
        for template in Self.templates {
            for _ in 0..<3 {
                var k = Int.random(in: -9...9, using: &generator)
                if k == 0 { k = 4 }
                let word = Self.words.randomElement(using: &generator) ?? "a"
                let predicate = template(k, word)
                let (store, evaluated) = try PredicateFixture.matches(predicate, in: context)
                #expect(store == evaluated, "k = \(k), w = \(word): \(predicate)")
                matched += store.count
            }
        }
        // The generated predicates match something, so agreement isn't just two empty results.
        #expect(matched > 200)
    }
}
