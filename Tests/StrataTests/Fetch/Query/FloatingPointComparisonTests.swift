import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

/// A floating-point property holding NaN, ±infinity and ±0.
@Model
final class FloatingSample {
    #Index<FloatingSample>([\.x])
    var name: String
    var x: Double
    var y: Double

    init(name: String, x: Double, y: Double) {
        self.name = name
        self.x = x
        self.y = y
    }
}

/// Comparisons on `Double` follow Swift's IEEE semantics in the store, in `#Predicate` and format predicates
/// alike: NaN is unordered and unequal to itself, `-0.0 == 0.0`, infinities order at the ends.
@Suite struct FloatingPointComparisonTests {
    static let values: [Double] = [.nan, .infinity, -.infinity, 0, -0.0, 2, 1.5, -3]

    private func context(_ kind: StoreKind) throws -> (ModelContext, [FloatingSample]) {
        let container = try freshContainer(kind, FloatingSample.self)
        let context = ModelContext(container)
        var samples: [FloatingSample] = []
        for (index, x) in Self.values.enumerated() {
            let sample = FloatingSample(name: "s\(index)", x: x, y: Self.values[(index * 3) % Self.values.count])
            context.insert(sample)
            samples.append(sample)
        }
        try context.save()
        return (context, samples)
    }

    private func expectSwiftSemantics(
        _ predicate: Predicate<FloatingSample>, in context: ModelContext, _ samples: [FloatingSample],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let store = try context.fetch(FetchDescriptor(predicate: predicate)).map(\.name).sorted()
        let swift = try samples.filter { try predicate.evaluate($0) }.map(\.name).sorted()
        #expect(store == swift, sourceLocation: sourceLocation)
    }

    @Test(arguments: StoreKind.all)
    func predicatesAgreeWithSwiftOnNaNAndInfinities(_ kind: StoreKind) throws {
        let (context, samples) = try context(kind)
        try expectSwiftSemantics(#Predicate { $0.x > 1 }, in: context, samples)
        try expectSwiftSemantics(#Predicate { $0.x >= -1 }, in: context, samples)
        try expectSwiftSemantics(#Predicate { $0.x < 1 }, in: context, samples)
        try expectSwiftSemantics(#Predicate { 1 < $0.x }, in: context, samples)
        try expectSwiftSemantics(#Predicate { 1 >= $0.x }, in: context, samples)
        try expectSwiftSemantics(#Predicate { $0.x == $0.x }, in: context, samples)
        try expectSwiftSemantics(#Predicate { $0.x != $0.x }, in: context, samples)
        try expectSwiftSemantics(#Predicate { $0.x == $0.y }, in: context, samples)
        try expectSwiftSemantics(#Predicate { $0.x != $0.y }, in: context, samples)
        try expectSwiftSemantics(#Predicate { $0.x > $0.y }, in: context, samples)
        try expectSwiftSemantics(#Predicate { $0.x <= $0.y }, in: context, samples)
        try expectSwiftSemantics(#Predicate { $0.x == 0 }, in: context, samples)
        try expectSwiftSemantics(#Predicate { !($0.x > 1) }, in: context, samples)
    }

    @Test(arguments: StoreKind.all)
    func formatPredicatesTreatNaNAsUnordered(_ kind: StoreKind) throws {
        let (context, samples) = try context(kind)
        let entity = try #require(context.container.schema.entity(for: FloatingSample.self))
        let cases: [(String, (FloatingSample) -> Bool)] = [
            ("x > 1", { $0.x > 1 }), ("x >= 0", { $0.x >= 0 }), ("x < 1", { $0.x < 1 }), ("x == y", { $0.x == $0.y }),
            ("x != y", { $0.x != $0.y }), ("x == x", { $0.x == $0.x }),
            ("x BETWEEN {-1, 3}", { $0.x >= -1 && $0.x <= 3 }),
            ("x == 0", { $0.x == 0 }), ("y > x", { $0.y > $0.x }),
        ]
        for (format, swift) in cases {
            let predicate = FormatPredicate(format: format)
            let store = try context.fetch(FetchDescriptor<FloatingSample>(predicate: predicate)).map(\.name).sorted()
            #expect(store == samples.filter(swift).map(\.name).sorted(), "\(format)")
            let condition = try FormatTranslator.translate(predicate, entity: entity)
            let evaluated = try samples.filter {
                try QueryEvaluator(entity: entity, backingData: $0.persistentBackingData).isSatisfied(condition)
            }.map(\.name).sorted()
            #expect(evaluated == store, "evaluator vs store: \(format)")
        }
    }

    @Test func greaterThanOnAnIndexedDoubleStillUsesTheIndex() throws {
        let store = TemporaryStore()
        let context = ModelContext(try store.container(FloatingSample.self))
        context.insert(FloatingSample(name: "nan", x: .nan, y: 0))
        try context.save()
        let entity = try #require(context.container.schema.entity(for: FloatingSample.self))
        let descriptor = FetchDescriptor<FloatingSample>(predicate: #Predicate { $0.x > 1 })
        let (sql, bindings) = try SelectStatement.sqlite.rows(try FetchPlan(descriptor, entity: entity).request)
            .render(in: SQLiteDialect())
        #expect(sql.contains(#"("x" <= ?)"#), "\(sql)")
        let connection = try SQLiteConnection(location: .file(store.url.path), readOnly: true)
        let plan = try connection.query("EXPLAIN QUERY PLAN " + sql, bindings)
        let details = plan.compactMap { row in row.last.flatMap { if case .text(let text) = $0 { text } else { nil } } }
        #expect(
            details.contains { $0.contains("USING INDEX") || $0.contains("USING COVERING INDEX") }, "plan: \(details)")
        #expect(try context.fetch(descriptor).isEmpty)
    }
}
