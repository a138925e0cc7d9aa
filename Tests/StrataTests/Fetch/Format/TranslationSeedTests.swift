import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

/// The seed's examples, verbatim.
@Suite struct TranslationSeedTests {
    @Test(arguments: StoreKind.all)
    func openTasksByDueDateThenPriority(_ kind: StoreKind) throws {
        let context = try TranslationFixture.context(kind)
        let tasks = [
            FormatTask(title: "b", dueDate: TranslationFixture.date(2), priority: 1),
            FormatTask(title: "a", dueDate: TranslationFixture.date(2), priority: 3),
            FormatTask(title: "done", isCompleted: true, dueDate: TranslationFixture.date(0), priority: 9),
            FormatTask(title: "c", dueDate: TranslationFixture.date(1), priority: 0),
        ]
        for task in tasks { context.insert(task) }
        try context.save()
        let descriptor = FetchDescriptor<FormatTask>(
            predicate: FormatPredicate(format: "isCompleted == NO"),
            sortDescriptors: [
                FormatSortDescriptor(key: "dueDate", ascending: true),
                FormatSortDescriptor(key: "priority", ascending: false),
            ])
        #expect(try context.fetch(descriptor).map(\.title) == ["c", "a", "b"])
    }

    @Test(arguments: StoreKind.all)
    func journalSearch(_ kind: StoreKind) throws {
        let context = try TranslationFixture.context(kind)
        context.insert(JournalEntry(title: "Morning", content: "Coffee and a walk"))
        context.insert(JournalEntry(title: "COFFEE notes", content: "beans"))
        context.insert(JournalEntry(title: "Evening", content: "tea"))
        try context.save()
        let searchText = "coffee"
        let predicate = FormatPredicate(
            format: "title CONTAINS[c] %@ OR content CONTAINS[c] %@", searchText, searchText)
        let titles = try context.fetch(FetchDescriptor<JournalEntry>(predicate: predicate)).map(\.title).sorted()
        #expect(titles == ["COFFEE notes", "Morning"])
    }

    /// A compound predicate rebuilt as the search text changes, as a search field would.
    @Test(arguments: StoreKind.all)
    func compoundPredicateBuiltAtRunTime(_ kind: StoreKind) throws {
        let context = try TranslationFixture.seededContext(kind)
        func search(_ text: String, openOnly: Bool) throws -> [String] {
            var parts: [FormatPredicate] = []
            for word in text.split(separator: " ") {
                parts.append(
                    FormatPredicate(
                        format: "title CONTAINS[cd] %@ OR notes CONTAINS[cd] %@", String(word), String(word)))
            }
            if openOnly { parts.append(FormatPredicate(format: "isCompleted == NO")) }
            let predicate = FormatPredicate(andPredicateWithSubpredicates: parts)
            return try context.fetch(FetchDescriptor<FormatTask>(predicate: predicate)).map(\.title).sorted()
        }
        #expect(try search("", openOnly: false).count == 6)
        #expect(try search("ecole", openOnly: false) == ["ÉCOLE forms", "école pickup"])
        #expect(try search("ecole", openOnly: true) == ["école pickup"])
        #expect(try search("ecole 3pm", openOnly: false) == ["école pickup"])
        #expect(try search("file", openOnly: false) == ["file10", "file2"])
        #expect(try search("deadline", openOnly: true) == ["Tax return"])
    }
}
