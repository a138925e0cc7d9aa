import Foundation
import SwiftData
import Testing

/// Foundation's `#Predicate` macro test cases (basics, function calls, operators, language tokens), each written once
/// for the `SwiftData` module's macro and once for Foundation's; see ``PredicateMacroTests``.
enum PredicateMacroCases {}

/// The `SwiftData` module's `#Predicate` writes the expression tree Foundation's writes: for each case, the same type
/// of tree, and the same answer (or the same failure) for every sample, each case true for one sample and false for
/// another.
@Suite struct PredicateMacroTests {
    static let caseNames = PredicateMacroCases.swiftDataMacro().map(\.name)

    @Test func bothMacrosBuildTheSameCases() {
        #expect(PredicateMacroCases.foundationMacro().map(\.name) == Self.caseNames)
        #expect(Self.caseNames.count == Set(Self.caseNames).count)
    }

    @Test(arguments: caseNames) func buildsFoundationsTreeAndAnswers(_ name: String) throws {
        let ours = try #require(PredicateMacroCases.swiftDataMacro().first { $0.name == name }?.predicate)
        let foundations = try #require(PredicateMacroCases.foundationMacro().first { $0.name == name }?.predicate)
        #expect(
            ObjectIdentifier(type(of: ours.expression)) == ObjectIdentifier(type(of: foundations.expression)),
            "\(type(of: ours.expression)) is not \(type(of: foundations.expression))")
        var answers: [Bool] = []
        for sample in PredicateSample.all {
            let answer = Result { try ours.evaluate(sample) }
            let expected = Result { try foundations.evaluate(sample) }
            switch (answer, expected) {
            case (.success(let answer), .success(let expected)):
                #expect(answer == expected, "\(sample.name)")
                answers.append(answer)
            case (.failure, .failure): break
            default: Issue.record("\(sample.name): \(answer) where Foundation's gives \(expected)")
            }
        }
        #expect(Set(answers) == [true, false], "every case is true for one sample and false for another")
    }

    @Test func aPredicateOfTheSwiftDataMacroAppliesAnExpression() throws {
        let long = #Expression<PredicateSample, Bool> { $0.name.count > 4 }
        let counted = #Expression<PredicateSample, Int> { $0.scores.count }
        let predicate = #Predicate<PredicateSample> { long.evaluate($0) && counted.evaluate($0) < 3 }
        #expect(try PredicateSample.all.map { try predicate.evaluate($0) } == [false, false, true])
    }

    @Test func aDoBlockIsItsExpression() throws {
        let predicate = #Predicate<PredicateSample> {
            do {
                return $0.count == 3
            }
        }
        #expect(try PredicateSample.all.map { try predicate.evaluate($0) } == [true, false, false])
    }
}
