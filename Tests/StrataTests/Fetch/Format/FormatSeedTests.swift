import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

/// The predicates from the seed samples (Core Data @FetchRequest tutorials), verbatim.
@Suite("Format predicates from the seed samples")
struct FormatSeedTests {
    typealias F = FormatFixture

    @Test func incompleteTasks() throws {
        #expect(try F.parse("isCompleted == NO") == F.compare(F.key("isCompleted"), .equal, F.value(.bool(false))))
    }

    @Test func statusEqualsArgument() throws {
        #expect(
            try F.parse("status == %@", "completed")
                == F.compare(F.key("status"), .equal, F.value(.string("completed"))))
    }

    @Test func diarySearch() throws {
        let searchText = "Café"
        #expect(
            try F.parse("title CONTAINS[c] %@", searchText)
                == F.compare(F.key("title"), .contains, F.value(.string("Café")), .caseInsensitive))
        #expect(
            try F.parse("title CONTAINS[c] %@ OR content CONTAINS[c] %@", searchText, searchText)
                == .or([
                    F.compare(F.key("title"), .contains, F.value(.string("Café")), .caseInsensitive),
                    F.compare(F.key("content"), .contains, F.value(.string("Café")), .caseInsensitive),
                ]))
    }

    @Test func subqueryOnARelationship() throws {
        let expression = try F.parse("SUBQUERY(tasks, $t, $t.isCompleted == NO AND $t.priority > 1).@count > 0")
        #expect(
            expression.predicateFormat == "SUBQUERY(tasks, $t, $t.isCompleted == NO AND $t.priority > 1).@count > 0")
    }

    @Test func anyTagName() throws {
        #expect(
            try F.parse("ANY tags.name ==[c] %@", "Work")
                == F.compare(F.key("tags.name"), .equal, F.value(.string("Work")), .caseInsensitive, quantifier: .any))
    }

    @Test func compoundsBuiltAtRunTime() throws {
        var filters: [FormatPredicate] = [FormatPredicate(format: "isCompleted == NO")]
        let category: String? = "home"
        if let category { filters.append(FormatPredicate(format: "category == %@", category)) }
        let search = "milk"
        filters.append(
            FormatPredicate(format: "title CONTAINS[c] %@", search)
                || FormatPredicate(format: "content CONTAINS[c] %@", search))
        let predicate = FormatPredicate(andPredicateWithSubpredicates: filters)
        #expect(
            predicate.predicateFormat
                == #"isCompleted == NO AND category == "home" AND (title CONTAINS[c] "milk" OR content CONTAINS[c] "milk")"#
        )
        #expect(try FormatPredicate.parse(format: predicate.predicateFormat) == predicate)
    }
}
