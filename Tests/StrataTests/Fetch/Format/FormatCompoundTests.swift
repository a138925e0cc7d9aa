import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

@Suite("Format predicate compounds")
struct FormatCompoundTests {
    typealias F = FormatFixture

    @Test func operatorsBuildFlatCompounds() throws {
        let a = FormatPredicate(format: "a == 1"), b = FormatPredicate(format: "b == 2"),
            c = FormatPredicate(format: "c == 3")
        #expect((a && b && c).expression == .and([F.equals("a", 1), F.equals("b", 2), F.equals("c", 3)]))
        #expect((a || b || c).expression == .or([F.equals("a", 1), F.equals("b", 2), F.equals("c", 3)]))
        #expect((!a).expression == .not(F.equals("a", 1)))
        #expect((a && (b || c)).predicateFormat == "a == 1 AND (b == 2 OR c == 3)")
    }

    @Test func emptyAndSingleCompounds() {
        #expect(FormatPredicate(andPredicateWithSubpredicates: []) == FormatPredicate(value: true))
        #expect(FormatPredicate(orPredicateWithSubpredicates: []) == FormatPredicate(value: false))
        #expect(
            FormatPredicate(orPredicateWithSubpredicates: [FormatPredicate(format: "a == 1")])
                == FormatPredicate(format: "a = 1"))
        #expect(FormatPredicate(value: true).predicateFormat == "TRUEPREDICATE")
    }

    @Test func errorsPropagateThroughCompounds() {
        let broken = FormatPredicate(format: "a ==")
        let combined = FormatPredicate(format: "b == 1") && !broken
        #expect(combined.error == broken.error)
        #expect(combined.error?.kind == .unexpectedEnd)
        #expect(throws: PredicateFormatError.self) { try combined.validated() }
    }

    @Test func equalityIgnoresSpelling() {
        #expect(FormatPredicate(format: "a = 1 && b <> 'x'") == FormatPredicate(format: "a==1 AND b != \"x\""))
        #expect(Set([FormatPredicate(format: "a = 1"), FormatPredicate(format: "a == 1")]).count == 1)
        #expect(FormatPredicate(format: "a == 1") != FormatPredicate(format: "a == 2"))
    }

    @Test func negationBuiltInCodeIsCappedNotOverflowing() {
        var predicate = FormatPredicate(format: "a == 1")
        for _ in 0..<10_000 { predicate = !predicate }
        #expect(predicate.error?.kind == .tooDeeplyNested)
    }
}
