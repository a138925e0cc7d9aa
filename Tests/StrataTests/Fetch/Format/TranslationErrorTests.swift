import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

/// Predicates that can't run: each throws an error naming the entity and what is wrong, at fetch time.
@Suite struct TranslationErrorTests {
    /// A format, its arguments, and a fragment the error's description must contain.
    struct Case: Sendable, CustomTestStringConvertible {
        let format: String
        let arguments: [any Sendable]
        let mentions: [String]
        var testDescription: String { format }

        init(_ format: String, _ arguments: any Sendable..., mentions: String...) {
            self.format = format
            self.arguments = arguments
            self.mentions = mentions
        }
    }

    static let corpus: [Case] = [
        Case("nope == 1", mentions: "FormatTask", "nope"),
        Case("titel CONTAINS 'x'", mentions: "FormatTask", "titel", "title"),
        Case("project.nmae == 'x'", mentions: "FormatProject", "nmae"),
        Case("project.name == 3", mentions: "FormatProject.name", "an integer"),
        Case("project.name CONTAINS 3", mentions: "an integer"),
        Case("tags.@max.name > 1 AND project.name + 1 > 2", mentions: "arithmetic", "FormatProject.name"),
        Case(
            "tags.@avg.name > 1", mentions: "FormatTask: tags.@avg.name > %@", "@avg.name needs numbers",
            "FormatTag.name holds String"),
        Case("tags.@sum.name == 0", mentions: "@sum.name needs numbers"),
        Case("title.count == 1", mentions: "title", "not a relationship"),
        Case("priority == 'high'", mentions: "FormatTask.priority", "a string"),
        Case("priority == %@", "3", mentions: "FormatTask.priority", "a string"),
        Case("title == 3", mentions: "FormatTask.title", "an integer"),
        Case("isCompleted == 2", mentions: "FormatTask.isCompleted", "an integer"),
        Case("dueDate > 'yesterday'", mentions: "FormatTask.dueDate", "a string"),
        Case("code == 'not-a-uuid'", mentions: "FormatTask.code"),
        Case("priority CONTAINS 'x'", mentions: "FormatTask.priority", "not text"),
        Case("title BEGINSWITH 3", mentions: "an integer"),
        Case("priority ==[c] 2", mentions: "text"),
        Case("priority IN 'abc'", mentions: "FormatTask.priority"),
        Case("title + 1 > 2", mentions: "arithmetic", "FormatTask.title"),
        Case("SELF == %@", "x", mentions: "SELF"),
        Case("ANY title == 'x'", mentions: "ANY", "to-many"),
        Case("ANY tags.name == title", mentions: "constant"),
        Case("tags == nil", mentions: "to-many"),
        Case("floor(priority) == 1", mentions: "floor"),
        Case("SUBQUERY(tags, $t, name == 'x').@count > 0", mentions: "$x.name"),
        Case("tags.@sum == 1", mentions: "@sum"),
        Case("priority == $LIMIT", mentions: "LIMIT"),
        Case("title == 'x' AND", mentions: "AND"),
        // Refused when the predicate is created, before any query runs.
        Case("title MATCHES '('", mentions: "Invalid regular expression for MATCHES: '('"),
        Case("title MATCHES %@", "a)(b", mentions: "Invalid regular expression for MATCHES: 'a)(b'"),
    ]

    @Test(arguments: StoreKind.all, corpus) func errorsNameTheProblem(_ kind: StoreKind, _ example: Case) throws {
        let context = try TranslationFixture.seededContext(kind)
        let predicate = FormatPredicate(format: example.format, argumentArray: example.arguments)
        do {
            _ = try context.fetch(FetchDescriptor<FormatTask>(predicate: predicate))
            Issue.record("\(example.format) fetched without an error")
        } catch {
            let text = "\(error)"
            for fragment in example.mentions {
                #expect(text.contains(fragment), "\(text) should mention \(fragment)")
            }
        }
    }

    @Test func collectionOperatorsAreTypeChecked() throws {
        let entity = try #require(try TranslationFixture.context().container.schema.entity(for: FormatProject.self))
        let refused = [
            "tasks.@avg.title > 1": "@avg.title needs numbers, but FormatTask.title holds String values",
            "tasks.@sum.isCompleted > 1":
                "@sum.isCompleted needs numbers, but FormatTask.isCompleted holds Bool values",
            "tasks.@sum.dueDate > 1": "@sum.dueDate needs numbers, but FormatTask.dueDate holds Date values",
            "tasks.@avg.status > 1": "@avg.status needs numbers",
            "tasks.@max.code == nil":
                "@max.code needs ordered values (numbers, text or dates), but FormatTask.code holds UUID values",
        ]
        for (format, message) in refused {
            let error = #expect(throws: StrataError.self, "\(format)") {
                try FormatTranslator.translate(FormatPredicate(format: format), entity: entity)
            }
            #expect(error?.description.contains(message) == true, "\(String(describing: error))")
        }
        for format in [
            "tasks.@avg.priority > 1", "tasks.@sum.cost > 1", "tasks.@avg.estimate > 1", "tasks.@max.title == 'x'",
            "tasks.@min.dueDate < 0",
        ] {
            #expect(throws: Never.self, "\(format)") {
                try FormatTranslator.translate(FormatPredicate(format: format), entity: entity)
            }
        }
    }

    @Test(arguments: StoreKind.all) func sortDescriptorErrors(_ kind: StoreKind) throws {
        let context = try TranslationFixture.seededContext(kind)
        let bad = [
            FormatSortDescriptor(key: "title", selector: "localizedCaseInsensitiveCompare:"),
            FormatSortDescriptor(key: "priority", selector: "localizedStandardCompare:"),
            FormatSortDescriptor(key: "missing"),
        ]
        for descriptor in bad {
            #expect(throws: SwiftDataError.self) {
                _ = try context.fetch(FetchDescriptor<FormatTask>(predicate: nil, sortDescriptors: [descriptor]))
            }
        }
    }
}
