import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

/// Random predicates over random tasks: the store (SQL) and the in-memory evaluator must match the same tasks,
/// and `NOT p` must match exactly the others.
@Suite struct TranslationDifferentialTests {
    /// A small deterministic generator (SplitMix64), so a failure reproduces.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let words = [
        "Café", "cafe", "CAFÉ", "école", "ÉCOLE", "e\u{301}cole", "straße", "STRASSE", "file2", "file10",
        "", "a*b", "ß", "İstanbul", "ﬁle", "Zebra", "apple", "Æsop", "naïve", "NAIVE",
    ]
    static let modifiers = ["", "[c]", "[d]", "[cd]"]

    private func seed(_ context: ModelContext, generator: inout SplitMix) throws {
        let projects = [FormatProject(name: "Café"), FormatProject(name: "cafe"), FormatProject(name: "Work")]
        let tags = [FormatTag(name: "ÉCOLE"), FormatTag(name: "école"), FormatTag(name: "misc")]
        for project in projects { context.insert(project) }
        for index in 0..<150 {
            let title =
                (Self.words.randomElement(using: &generator) ?? "")
                + (Bool.random(using: &generator) ? " \(index % 7)" : "")
            let task = FormatTask(
                title: title,
                notes: Bool.random(using: &generator) ? Self.words.randomElement(using: &generator) : nil,
                isCompleted: Bool.random(using: &generator),
                dueDate: TranslationFixture.date(Int.random(in: 0...9, using: &generator)),
                priority: Int.random(in: -3...5, using: &generator),
                estimate: Double(Int.random(in: 0...16, using: &generator)) / 4,
                cost: Decimal(Int.random(in: 0...40, using: &generator)) / 8,
                status: FormatStatus.allCases.randomElement(using: &generator) ?? .open)
            context.insert(task)
            if Bool.random(using: &generator) { task.project = projects.randomElement(using: &generator) }
            task.tags = tags.filter { _ in Int.random(in: 0...2, using: &generator) == 0 }
        }
        try context.save()
    }

    private func atom(_ generator: inout SplitMix) -> (String, [any Sendable]) {
        let word = Self.words.randomElement(using: &generator) ?? ""
        let modifier = Self.modifiers.randomElement(using: &generator) ?? ""
        let number = Int.random(in: -3...5, using: &generator)
        let comparison = ["==", "!=", "<", "<=", ">", ">="].randomElement(using: &generator) ?? "=="
        switch Int.random(in: 0...21, using: &generator) {
        case 0: return ("title \(comparison)\(modifier) %@", [word])
        case 1:
            return (
                "title \(["BEGINSWITH", "ENDSWITH", "CONTAINS"].randomElement(using: &generator) ?? "CONTAINS")\(modifier) %@",
                [word]
            )
        case 2: return ("title LIKE\(modifier) %@", [["*", "?", ""].randomElement(using: &generator)! + word + "*"])
        case 3: return (["notes == nil", "notes != nil"].randomElement(using: &generator) ?? "notes == nil", [])
        case 4: return ("notes \(comparison)\(modifier) %@", [word])
        case 5: return ("priority \(comparison) %d", [number])
        case 6: return ("priority IN %@", [[number, number + 2]])
        case 7: return ("priority BETWEEN {%d, %d}", [number, number + 2])
        case 8: return ("estimate \(comparison) %f", [Double(number) / 2])
        case 9: return ("cost \(comparison) %@", [Decimal(number + 3) / 2])
        case 10:
            return (
                ["isCompleted == YES", "isCompleted == NO"].randomElement(using: &generator) ?? "isCompleted == NO", []
            )
        case 11: return ("status == %@", [FormatStatus.allCases.randomElement(using: &generator) ?? .open])
        case 12:
            return (
                ["priority * 2 + 1 > %d", "estimate - priority < %d", "priority / 3 >= %d"].randomElement(
                    using: &generator)!, [number]
            )
        case 13:
            return (
                "project.name ==\(modifier) %@", [["Café", "CAFE", "cafe", "Work"].randomElement(using: &generator)!]
            )
        case 14:
            return ("ANY tags.name ==\(modifier) %@", [["ECOLE", "école", "misc"].randomElement(using: &generator)!])
        case 15: return ("tags.@count \(comparison) %d", [Int.random(in: 0...3, using: &generator)])
        // Values that are nil in some rows (no project, no tags, nil notes), so NOT above them meets nil.
        case 16:
            return (
                "project.name \(comparison)\(modifier) %@",
                [["Café", "cafe", "Work"].randomElement(using: &generator)!]
            )
        case 17:
            return (
                "tags.name \(["CONTAINS", "BEGINSWITH", "==", "!="].randomElement(using: &generator)!)\(modifier) %@",
                [["ECOLE", "éco", "misc", "e"].randomElement(using: &generator)!]
            )
        case 18:
            if Bool.random(using: &generator) {
                return ("notes MATCHES\(modifier) %@", [[".*e.*", "a.*", "ß"].randomElement(using: &generator)!])
            }
            return ("notes LIKE\(modifier) %@", [["*e*", "a?*", "ß"].randomElement(using: &generator)!])
        case 19: return ("tags.@max.name \(comparison) %@", [["a", "m", "é"].randomElement(using: &generator)!])
        case 20: return ("notes BETWEEN {%@, %@}", ["a", "n"])
        default: return ("priority ** 2 \(comparison) %d", [number * 3])
        }
    }

    private func predicate(_ generator: inout SplitMix, depth: Int) -> (String, [any Sendable]) {
        guard depth > 0, Int.random(in: 0...2, using: &generator) > 0 else { return atom(&generator) }
        let (left, leftArguments) = predicate(&generator, depth: depth - 1)
        switch Int.random(in: 0...2, using: &generator) {
        case 0: return ("NOT (\(left))", leftArguments)
        default:
            let (right, rightArguments) = predicate(&generator, depth: depth - 1)
            let joiner = Bool.random(using: &generator) ? "AND" : "OR"
            return ("(\(left)) \(joiner) (\(right))", leftArguments + rightArguments)
        }
    }

    @Test(arguments: StoreKind.all) func storeAndEvaluatorAgree(_ kind: StoreKind) throws {
        var generator = SplitMix(state: 20_261_129)
        let context = try TranslationFixture.context(kind)
        try seed(context, generator: &generator)
        let entity = try #require(context.container.schema.entity(for: FormatTask.self))
        let tasks = try context.fetch(FetchDescriptor<FormatTask>())
        var nonTrivial = 0
        for _ in 0..<100 {
            let (format, arguments) = predicate(&generator, depth: 3)
            let predicate = FormatPredicate(format: format, argumentArray: arguments)
            let store = try context.fetch(FetchDescriptor<FormatTask>(predicate: predicate)).map(\.persistentModelID)
            let condition = try FormatTranslator.translate(predicate, entity: entity)
            let evaluated = try tasks.filter {
                try QueryEvaluator(entity: entity, backingData: $0.persistentBackingData).isSatisfied(condition)
            }.map(\.persistentModelID)
            #expect(Set(store) == Set(evaluated), "\(format) \(arguments)")
            // Two-valued: NOT matches exactly the tasks the predicate doesn't, nil values included.
            let negated = try context.fetch(FetchDescriptor<FormatTask>(predicate: !predicate)).map(\.persistentModelID)
            #expect(
                Set(negated).isDisjoint(with: store) && negated.count + store.count == tasks.count,
                "NOT (\(format)) \(arguments)")
            if !store.isEmpty && store.count < 150 { nonTrivial += 1 }
        }
        // The sample must exercise real filtering, not only all-or-nothing predicates.
        #expect(nonTrivial > 50)
    }
}
