import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

/// Differential fuzzing of format predicates: random compound `FormatPredicate`s over rows of awkward values
/// select in the store exactly the rows Strata's in-memory evaluator selects, or are refused with an error.
@Suite struct FormatFuzzTests {
    static let operators = [
        "==", "!=", "<", "<=", ">", ">=", "BEGINSWITH", "CONTAINS", "ENDSWITH", "LIKE",
        "CONTAINS[cd]", "==[c]", "BEGINSWITH[d]",
    ]

    private static func constant<G: RandomNumberGenerator>(for key: String, _ generator: inout G) -> any Sendable {
        switch key {
        case "d": FuzzPools.pick(FuzzPools.doubles, &generator)
        case "f": FuzzPools.pick(FuzzPools.floats, &generator)
        case "i": FuzzPools.pick(FuzzPools.ints, &generator)
        case "u": FuzzPools.pick(FuzzPools.unsigned, &generator)
        case "o": FuzzPools.pick(FuzzPools.ints, &generator)
        case "date": FuzzPools.pick(FuzzPools.dates, &generator)
        case "dec": FuzzPools.pick(FuzzPools.decimals, &generator)
        case "uuid": FuzzPools.pick(FuzzPools.uuids, &generator)
        case "data": FuzzPools.pick(FuzzPools.datas, &generator)
        case "flag": Bool.random(using: &generator)
        default: FuzzPools.pick(FuzzPools.strings, &generator)
        }
    }

    /// A random compound predicate; with `relationships`, leaves may read `partner` and `items` too.
    static func tree<G: RandomNumberGenerator>(
        depth: Int, relationships: Bool = false, _ generator: inout G
    ) -> FormatPredicate {
        if depth > 0, generator.next() % 3 != 0 {
            let left = tree(depth: depth - 1, relationships: relationships, &generator)
            switch generator.next() % 3 {
            case 0:
                return FormatPredicate(andPredicateWithSubpredicates: [
                    left, tree(depth: depth - 1, relationships: relationships, &generator),
                ])
            case 1:
                return FormatPredicate(orPredicateWithSubpredicates: [
                    left, tree(depth: depth - 1, relationships: relationships, &generator),
                ])
            default: return FormatPredicate(notPredicateWithSubpredicate: left)
            }
        }
        if relationships, generator.next() % 3 == 0 { return relationshipLeaf(&generator) }
        let key = FuzzPools.pick(
            ["d", "f", "i", "u", "o", "s", "t", "date", "dec", "uuid", "data", "flag"], &generator)
        let op = FuzzPools.pick(key == "s" || key == "t" ? operators : Array(operators.prefix(6)), &generator)
        if generator.next() % 8 == 0 { return FormatPredicate(format: "%K \(op) %K", key, key) }
        return FormatPredicate(format: "%K \(op) %@", key, constant(for: key, &generator))
    }

    /// Arithmetic past Int64, unrepresentable arguments and NUL constants on PostgreSQL are refused; string
    /// semantics never are.
    @Test(arguments: StoreKind.all) func storeAndEvaluatorAgree(_ kind: StoreKind) throws {
        let seed = PredicateFuzzTests.seed
        var generator = PredicateFuzzTests.Generator(state: seed)
        let (context, _) = try PredicateFuzzTests.fixture(count: 40, in: kind, using: &generator)
        let entity = try #require(context.container.schema.entity(for: FuzzRow.self))
        let rows = try context.fetch(FetchDescriptor<FuzzRow>())
        var failures: [String] = []
        var refusals = PredicateFuzzTests.Refusals()
        for iteration in 0..<PredicateFuzzTests.iterations where failures.count < 5 {
            let predicate = Self.tree(depth: 3, relationships: true, &generator)
            let store: Set<Int>
            do {
                store = Set(try context.fetch(FetchDescriptor<FuzzRow>(predicate: predicate)).map(\.serial))
            } catch {
                if let error = error as? StrataError {
                    refusals.record(error, for: "\(predicate)")
                } else {
                    refusals.count += 1
                }
                if ProcessInfo.processInfo.environment["STRATA_FUZZ_VERBOSE"] != nil {
                    print("refused \(predicate): \(error)")
                }
                continue
            }
            let condition = try FormatTranslator.translate(predicate, entity: entity)
            for row in rows {
                let evaluated: Bool
                do {
                    evaluated = try QueryEvaluator(entity: entity, backingData: row.persistentBackingData).isSatisfied(
                        condition)
                } catch {
                    failures.append(
                        "\(predicate): the store answered, the evaluator threw \(error) for \(row.summary) (seed \(seed), iteration \(iteration))"
                    )
                    break
                }
                if evaluated != store.contains(row.serial) {
                    failures.append(
                        "\(predicate): evaluator says \(evaluated) for \(row.summary) (seed \(seed), iteration \(iteration))"
                    )
                    break
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        #expect(
            refusals.count * 2 < PredicateFuzzTests.iterations,
            "\(refusals.count) of \(PredicateFuzzTests.iterations) refused")
        #expect(refusals.strings.isEmpty, "refused for string semantics:\n\(refusals.strings.joined(separator: "\n"))")
    }
}
