import Foundation
import Strata
import Testing

@testable import StrataTestFixtures

/// Differential fuzzing: random `Predicate` trees over rows of awkward values either select in the store exactly
/// the rows `Predicate.evaluate` selects, or are refused with a `StrataError`, never answered differently. Where
/// `evaluate` would trap (integer overflow), the store must throw unless the other operand of `&&` / `||` decides.
///
/// `STRATA_FUZZ_SEED` and `STRATA_FUZZ_ITERATIONS` choose a longer or different run; a failure prints the seed,
/// a minimized predicate and the first row the two disagree on.
@Suite struct PredicateFuzzTests {
    /// SplitMix64, so a seed reproduces a run.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var mixed = state
            mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
            return mixed ^ (mixed >> 31)
        }
    }

    static var seed: UInt64 { ProcessInfo.processInfo.environment["STRATA_FUZZ_SEED"].flatMap { UInt64($0) } ?? 22 }
    static var iterations: Int {
        ProcessInfo.processInfo.environment["STRATA_FUZZ_ITERATIONS"].flatMap { Int($0) } ?? 150
    }

    /// A saved store holding `count` random rows and their related items, and unattached copies of them for
    /// `evaluate`.
    static func fixture(
        count: Int, in kind: StoreKind = .sqlite, using generator: inout Generator
    ) throws -> (ModelContext, [FuzzRow]) {
        let rows = (0..<count).map { FuzzPools.row($0, using: &generator) }
        FuzzPools.relate(rows, using: &generator)
        if kind == .postgres { FuzzPools.removeNUL(from: rows) }
        let originals = FuzzPools.copies(of: rows)
        let context = ModelContext(try freshContainer(kind, FuzzRow.self))
        for row in rows { context.insert(row) }
        try context.save()
        return (context, originals)
    }

    /// The predicates a store refused, and those refused for their string semantics.
    struct Refusals {
        var count = 0
        /// Refusals for string semantics: every `unsupportedPredicate` but PostgreSQL's for NUL text (which it can't
        /// store). Both stores give Foundation's semantics to every text, so this stays empty.
        var strings: [String] = []

        mutating func record(_ error: StrataError, for predicate: String) {
            count += 1
            if case .unsupportedPredicate(_, let reason) = error, !reason.contains("U+0000") {
                strings.append("\(predicate): \(error)")
            }
        }
    }

    /// How the store and `evaluate` disagree on `tree`, or `nil` when they agree or the store refuses it
    /// (counted in `refusals`).
    static func disagreement(
        _ tree: FuzzPredicate, in context: ModelContext, _ rows: [FuzzRow], refusals: inout Refusals
    ) -> String? {
        let predicate = tree.predicate
        var outcomes: [Bool?] = []
        for row in rows {
            do { outcomes.append(try tree.outcome(row)) } catch { return "evaluate threw \(error)" }
        }
        let store: Set<Int>
        do {
            store = Set(try context.fetch(FetchDescriptor(predicate: predicate)).map(\.serial))
        } catch {
            guard let refusal = StrataError(error) else { return "the store threw \(error), not a StrataError" }
            refusals.record(refusal, for: "\(tree)")
            if ProcessInfo.processInfo.environment["STRATA_FUZZ_VERBOSE"] != nil { print("refused \(tree): \(error)") }
            return nil
        }
        for (row, outcome) in zip(rows, outcomes) {
            guard let swift = outcome else {
                return "evaluate traps (integer overflow), the store answered without an error, for \(row.summary)"
            }
            if swift != store.contains(row.serial) {
                return "evaluate says \(swift), the store says \(!swift) for \(row.summary)"
            }
        }
        return nil
    }

    /// The smallest subtree of a failing tree that still fails.
    static func minimized(_ tree: FuzzPredicate, in context: ModelContext, _ rows: [FuzzRow]) -> (FuzzPredicate, String)
    {
        var current = tree
        var refusals = Refusals()
        var failure = disagreement(tree, in: context, rows, refusals: &refusals) ?? ""
        var shrinking = true
        while shrinking {
            shrinking = false
            for candidate in current.shrunk {
                if let found = disagreement(candidate, in: context, rows, refusals: &refusals) {
                    current = candidate
                    failure = found
                    shrinking = true
                    break
                }
            }
        }
        return (current, failure)
    }

    /// Three seeds from `seed` on: the rows mix ASCII with accents, ß, Turkish and Greek letters, emoji sequences and
    /// combining marks, so each seed's string predicates meet non-ASCII text.
    static var seeds: [UInt64] { [seed, seed &+ 1, seed &+ 2] }

    /// Arithmetic past Int64 and NUL constants on PostgreSQL are refused; string semantics never are.
    @Test(arguments: StoreKind.all, seeds) func generatedPredicatesMatchEvaluate(_ kind: StoreKind, seed: UInt64) throws
    {
        var generator = Generator(state: seed)
        let (context, rows) = try Self.fixture(count: 40, in: kind, using: &generator)
        var trees = FuzzTrees(generator: generator, relationships: true)
        var failures: [String] = []
        var refusals = Refusals()
        for iteration in 0..<Self.iterations where failures.count < 5 {
            let tree = trees.tree(depth: 3)
            guard Self.disagreement(tree, in: context, rows, refusals: &refusals) != nil else { continue }
            let (minimal, failure) = Self.minimized(tree, in: context, rows)
            if !failures.contains(where: { $0.hasPrefix("\(minimal):") }) {
                failures.append("\(minimal): \(failure) (seed \(seed), iteration \(iteration))")
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        // Most generated predicates run in the store, so agreement isn't just refusal.
        #expect(
            refusals.count * (kind == .sqlite ? 4 : 2) < Self.iterations,
            "\(refusals.count) of \(Self.iterations) refused")
        #expect(
            refusals.strings.isEmpty,
            "refused for string semantics (seed \(seed)):\n\(refusals.strings.joined(separator: "\n"))")
    }
}
