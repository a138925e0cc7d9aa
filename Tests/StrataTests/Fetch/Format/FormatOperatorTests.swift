import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

@Suite("Format predicate operators and modifiers")
struct FormatOperatorTests {
    typealias F = FormatFixture

    @Test(
        "every comparison operator and its synonyms",
        arguments: [
            ("==", ComparisonOperator.equal), ("=", .equal), ("!=", .notEqual), ("<>", .notEqual),
            ("<", .less), ("<=", .lessOrEqual), ("=<", .lessOrEqual), (">", .greater),
            (">=", .greaterOrEqual), ("=>", .greaterOrEqual), ("BEGINSWITH", .beginsWith),
            ("endswith", .endsWith), ("Contains", .contains), ("LIKE", .like), ("MATCHES", .matches),
            ("IN", .in),
        ])
    func comparison(spelling: String, op: ComparisonOperator) throws {
        #expect(try F.parse("a \(spelling) 1") == F.compare(F.key("a"), op, F.value(.int(1))))
    }

    @Test(
        "modifiers [c] [d] [cd] on string, equality and IN operators",
        arguments: [
            ("[c]", ComparisonOptions.caseInsensitive), ("[d]", .diacriticInsensitive),
            ("[cd]", ComparisonOptions([.caseInsensitive, .diacriticInsensitive])),
            ("[DC]", ComparisonOptions([.caseInsensitive, .diacriticInsensitive])),
        ])
    func modifiers(modifier: String, options: ComparisonOptions) throws {
        for (spelling, op) in [
            ("CONTAINS", ComparisonOperator.contains), ("==", .equal), ("!=", .notEqual),
            ("IN", .in), ("BEGINSWITH", .beginsWith), ("LIKE", .like),
        ] {
            #expect(
                try F.parse("name \(spelling)\(modifier) 'x'")
                    == F.compare(F.key("name"), op, F.value(.string("x")), options))
        }
    }

    @Test func notBindsTighterThanAndWhichBindsTighterThanOr() throws {
        let expected = FormatExpression.or([F.equals("a", 1), .and([F.equals("b", 2), F.equals("c", 3)])])
        #expect(try F.parse("a == 1 OR b == 2 AND c == 3") == expected)
        #expect(try F.parse("a == 1 || b == 2 && c == 3") == expected)
        #expect(try F.parse("NOT a == 1 AND b == 2") == .and([.not(F.equals("a", 1)), F.equals("b", 2)]))
        #expect(try F.parse("!(a == 1 AND b == 2)") == .not(.and([F.equals("a", 1), F.equals("b", 2)])))
        #expect(
            try F.parse("(a == 1 OR b == 2) AND c == 3")
                == .and([.or([F.equals("a", 1), F.equals("b", 2)]), F.equals("c", 3)]))
    }

    @Test func chainsFlattenButParenthesesKeepTheirNesting() throws {
        #expect(
            try F.parse("a == 1 AND b == 2 and c == 3") == .and([F.equals("a", 1), F.equals("b", 2), F.equals("c", 3)]))
        #expect(
            try F.parse("(a == 1 AND b == 2) AND c == 3")
                == .and([.and([F.equals("a", 1), F.equals("b", 2)]), F.equals("c", 3)]))
    }

    @Test func truePredicateAndFalsePredicate() throws {
        #expect(try F.parse("TRUEPREDICATE") == .constant(true))
        #expect(try F.parse("falsepredicate OR a == 1") == .or([.constant(false), F.equals("a", 1)]))
    }

    @Test func quantifiers() throws {
        for (word, quantifier) in [("ANY", Quantifier.any), ("some", .any), ("ALL", .all), ("NONE", .none)] {
            #expect(
                try F.parse("\(word) tags.name == 'x'")
                    == F.compare(F.key("tags.name"), .equal, F.value(.string("x")), quantifier: quantifier))
        }
    }

    @Test func betweenTakesALiteralPairOrAnArrayArgument() throws {
        let expected = FormatExpression.between(F.key("age"), lower: F.value(.int(18)), upper: F.value(.int(65)))
        #expect(try F.parse("age BETWEEN {18, 65}") == expected)
        #expect(try F.parse("age between %@", [18, 65]) == expected)
        #expect(
            try F.parse("age BETWEEN {minAge, 65}")
                == .between(F.key("age"), lower: F.key("minAge"), upper: F.value(.int(65))))
    }

    @Test func inTakesLiteralListsArraysAndKeyPaths() throws {
        #expect(
            try F.parse("status IN {'a', 'b'}")
                == F.compare(F.key("status"), .in, F.value(.array([.string("a"), .string("b")]))))
        #expect(
            try F.parse("status IN %@", ["a", "b"])
                == F.compare(F.key("status"), .in, F.value(.array([.string("a"), .string("b")]))))
        #expect(try F.parse("%@ IN tags", "x") == F.compare(F.value(.string("x")), .in, F.key("tags")))
        #expect(try F.parse("a IN {b, 1}") == F.compare(F.key("a"), .in, .aggregate([F.key("b"), F.value(.int(1))])))
        #expect(try F.parse("a IN {}") == F.compare(F.key("a"), .in, F.value(.array([]))))
    }

    @Test func collectionOperators() throws {
        #expect(
            try F.parse("tasks.@count > 2")
                == F.compare(.collectionOperation(F.key("tasks"), .count, []), .greater, F.value(.int(2))))
        for (name, op) in [
            ("@sum", CollectionOperator.sum), ("@avg", .average), ("@min", .minimum), ("@max", .maximum),
        ] {
            #expect(
                try F.parse("tasks.\(name).priority > 1")
                    == F.compare(.collectionOperation(F.key("tasks"), op, ["priority"]), .greater, F.value(.int(1))))
        }
    }

    @Test func arithmeticFollowsTheUsualPrecedence() throws {
        let product = FormatOperand.arithmetic(F.key("b"), .multiply, F.value(.int(2)))
        #expect(
            try F.parse("a + b * 2 > 10")
                == F.compare(.arithmetic(F.key("a"), .add, product), .greater, F.value(.int(10))))
        #expect(
            try F.parse("(a + b) / 2 >= c - 1")
                == F.compare(
                    .arithmetic(.arithmetic(F.key("a"), .add, F.key("b")), .divide, F.value(.int(2))),
                    .greaterOrEqual, .arithmetic(F.key("c"), .subtract, F.value(.int(1)))))
        #expect(
            try F.parse("a == -b")
                == F.compare(F.key("a"), .equal, .arithmetic(F.value(.int(0)), .subtract, F.key("b"))))
    }

    @Test func powerBindsTighterThanMultiplication() throws {
        let square = FormatOperand.arithmetic(F.key("b"), .power, F.value(.int(2)))
        #expect(
            try F.parse("a * b ** 2 > 10")
                == F.compare(.arithmetic(F.key("a"), .multiply, square), .greater, F.value(.int(10))))
        #expect(
            try F.parse("2 ** -1 == 0.5")
                == F.compare(.arithmetic(F.value(.int(2)), .power, F.value(.int(-1))), .equal, F.value(.double(0.5))))
        #expect(FormatPredicate(format: "a * b**2 > 10").predicateFormat == "a * (b ** 2) > 10")
        #expect(F.error("a *** 2 > 1")?.kind == .unexpectedToken)
    }

    @Test func functions() throws {
        #expect(try F.parse("dueDate < now()") == F.compare(F.key("dueDate"), .less, .function("now", [])))
        #expect(
            try F.parse("lowercase(name) == 'x'")
                == F.compare(.function("lowercase", [F.key("name")]), .equal, F.value(.string("x"))))
    }

    @Test func keyPathsSelfAndEscapedReservedWords() throws {
        #expect(
            try F.parse("author.address.city == 'Sofia'")
                == F.compare(F.key("author.address.city"), .equal, F.value(.string("Sofia"))))
        #expect(try F.parse("SELF.name == 'x'") == F.compare(F.key("name"), .equal, F.value(.string("x"))))
        #expect(try F.parse("SELF IN %@", [1]) == F.compare(.evaluatedObject, .in, F.value(.array([.int(1)]))))
        #expect(try F.parse("#size == 3") == F.compare(F.key("size"), .equal, F.value(.int(3))))
        #expect(try F.parse("box.#in == 3") == F.compare(F.key("box.in"), .equal, F.value(.int(3))))
    }
}
