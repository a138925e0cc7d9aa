import Foundation
import Strata
import Testing
@testable import StrataTestFixtures

/// Floating-point arithmetic and NaN constants in `#Predicate` follow Swift's IEEE semantics in the store:
/// a NaN operand or result is unordered and unequal to everything, `x / 0` is an infinity.
@Suite struct PredicateFloatingArithmeticTests {
    private func context(_ kind: StoreKind) throws -> (ModelContext, [FloatingSample]) {
        let container = try freshContainer(kind, FloatingSample.self)
        let context = ModelContext(container)
        let values: [Double] = [.nan, .infinity, -.infinity, 0, -0.0, 1, -2.5]
        let samples = values.enumerated().map { FloatingSample(name: "s\($0.offset)", x: $0.element, y: 0) }
        for sample in samples { context.insert(sample) }
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
    func nanConstantsMatchNothingButInequality(_ kind: StoreKind) throws {
        let (context, samples) = try context(kind)
        // NaN, read from a pool so the compiler doesn't fold the comparisons away.
        let notANumber = try #require(FuzzPools.doubles.first { $0.isNaN })
        try expectSwiftSemantics(#Predicate { $0.x == notANumber }, in: context, samples)
        try expectSwiftSemantics(#Predicate { $0.x != notANumber }, in: context, samples)
        try expectSwiftSemantics(#Predicate { $0.x < notANumber }, in: context, samples)
        try expectSwiftSemantics(#Predicate { $0.x >= notANumber }, in: context, samples)
        try expectSwiftSemantics(#Predicate { notANumber > $0.x }, in: context, samples)
        try expectSwiftSemantics(#Predicate { notANumber <= $0.x }, in: context, samples)
        #expect(
            try context.fetch(FetchDescriptor(predicate: #Predicate<FloatingSample> { $0.x == notANumber })).isEmpty)
    }

    @Test(arguments: StoreKind.all)
    func arithmeticPropagatesNaNAndInfinities(_ kind: StoreKind) throws {
        let (context, samples) = try context(kind)
        let zero = 0.0
        let infinity = Double.infinity
        try expectSwiftSemantics(#Predicate { -$0.x <= 2.5 }, in: context, samples)
        try expectSwiftSemantics(#Predicate { $0.x + 1 <= 2 }, in: context, samples)
        try expectSwiftSemantics(#Predicate { $0.x - infinity <= -1 }, in: context, samples)
        try expectSwiftSemantics(#Predicate { $0.x / zero > 1 }, in: context, samples)
        try expectSwiftSemantics(#Predicate { $0.x / zero == $0.x / zero }, in: context, samples)
        try expectSwiftSemantics(#Predicate { $0.x * zero != 0 }, in: context, samples)
        try expectSwiftSemantics(#Predicate { $0.x * 2 == $0.x + $0.x }, in: context, samples)
        // ∞ / 0 and 1 / 0 are +infinity in Swift; SQLite alone gives NULL for x / 0.
        #expect(
            try context.fetch(FetchDescriptor(predicate: #Predicate<FloatingSample> { $0.x / zero > 1 })).map(\.name)
                .sorted() == ["s1", "s5"])
    }
}

/// A `Float` attribute, whose arithmetic Swift rounds to single precision.
@Model
final class SinglePrecisionSample {
    var name: String
    var f: Float

    init(name: String, f: Float) {
        self.name = name
        self.f = f
    }
}

@Suite struct PredicateFloatArithmeticTests {
    @Test(arguments: StoreKind.all)
    func floatArithmeticRoundsToSinglePrecisionAsSwiftDoes(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, SinglePrecisionSample.self)
        let context = ModelContext(container)
        let samples = [SinglePrecisionSample(name: "tenth", f: 0.1), SinglePrecisionSample(name: "nan", f: .nan)]
        for sample in samples { context.insert(sample) }
        try context.save()
        let three: Float = 3
        let expected: Float = 0.3
        // In Float 0.1 * 3 == 0.3; computed in double precision it is not.
        let predicate = #Predicate<SinglePrecisionSample> { $0.f * three == expected }
        #expect(try samples.filter { try predicate.evaluate($0) }.map(\.name) == ["tenth"])
        #expect(try context.fetch(FetchDescriptor(predicate: predicate)).map(\.name) == ["tenth"])
    }
}
