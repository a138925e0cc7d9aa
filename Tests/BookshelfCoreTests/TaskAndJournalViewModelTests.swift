import Foundation
import Strata
import Testing

@testable import BookshelfCore

@MainActor
@Suite("Tasks and journal view models")
struct TaskAndJournalViewModelTests {
    @Test("Open tasks by due date ascending, then priority descending; done tasks leave the list")
    func taskOrder() throws {
        let shelf = try TestStores.memory()
        let day = Date(timeIntervalSinceReferenceDate: 800_000_000)
        try shelf.insert(TaskItem(title: "later", priority: 9, dueDate: day.addingTimeInterval(86_400)))
        try shelf.insert(TaskItem(title: "low", priority: 1, dueDate: day))
        try shelf.insert(TaskItem(title: "high", priority: 5, dueDate: day))
        try shelf.insert(TaskItem(title: "done", dueDate: day, isCompleted: true))
        let model = TaskListViewModel(shelf: shelf)
        #expect(model.list.rows.map(\.title) == ["high", "low", "later"])
        try model.toggle(try #require(model.list.selected))
        #expect(model.list.rows.map(\.title) == ["low", "later"])
    }

    @Test("The category filter is a run-time predicate; new tasks are numbered as in the seed")
    func categoryFilter() throws {
        let shelf = try TestStores.memory()
        try shelf.insert(TaskItem(title: "taxes", category: "home"))
        try shelf.insert(TaskItem(title: "report", category: "work"))
        let model = TaskListViewModel(shelf: shelf)
        model.filter(category: "work")
        #expect(model.list.rows.map(\.title) == ["report"])
        try model.add()
        #expect(Set(model.list.rows.map(\.title)) == ["report", "New task 2"])
        model.filter(category: "  ")
        #expect(model.category == nil)
        #expect(model.list.rows.count == 3)
    }

    @Test("Journal: newest first; search matches title OR content ignoring case; empty shows all")
    func journalSearch() throws {
        let shelf = try TestStores.memory()
        try shelf.insert(
            JournalEntry(title: "Market", content: "Buy MILK", date: Date(timeIntervalSinceReferenceDate: 1)))
        try shelf.insert(
            JournalEntry(title: "Milkshake recipe", content: "", date: Date(timeIntervalSinceReferenceDate: 2)))
        try shelf.insert(
            JournalEntry(title: "Travel", content: "Lisbon", date: Date(timeIntervalSinceReferenceDate: 3)))
        let model = JournalViewModel(shelf: shelf)
        #expect(model.list.rows.map(\.title) == ["Travel", "Milkshake recipe", "Market"])
        model.searchText = "milk"
        #expect(model.list.rows.map(\.title) == ["Milkshake recipe", "Market"])
        model.searchText = "LISBON"
        #expect(model.list.rows.map(\.title) == ["Travel"])
        model.searchText = ""
        #expect(model.list.rows.count == 3)
        #expect(throws: CommandError.missingField("title")) { try model.add(title: "", content: "x") }

        let travel = try #require(model.list.rows.first)
        #expect(try model.edit(travel, title: "Travel", content: "Lisbon") == false)
        #expect(try model.edit(travel, title: "Travel", content: "Lisbon\nPorto") == true)
        #expect(model.list.selected?.content == "Lisbon\nPorto")
    }

    @Test("The journal's format-predicate descriptor re-fetches a ResultsObserver when set as its fetchDescriptor")
    func searchDescriptorOnObserver() throws {
        let shelf = try TestStores.memory()
        try shelf.insert(
            JournalEntry(title: "Market", content: "Buy MILK", date: Date(timeIntervalSinceReferenceDate: 1)))
        try shelf.insert(
            JournalEntry(title: "Travel", content: "Lisbon", date: Date(timeIntervalSinceReferenceDate: 3)))
        #expect(JournalSearch.descriptor(matching: "").formatPredicate == nil)
        #expect(
            JournalSearch.descriptor(matching: "milk").formatPredicate
                == FormatPredicate(format: "title CONTAINS[c] %@ OR content CONTAINS[c] %@", "milk", "milk"))
        let observer = try ResultsObserver(
            fetchDescriptor: JournalSearch.descriptor(matching: ""), modelContext: ModelContext(shelf.container))
        #expect(observer.results.map(\.title) == ["Travel", "Market"])
        observer.fetchDescriptor = JournalSearch.descriptor(matching: "milk")
        #expect(observer.results.map(\.title) == ["Market"])
        #expect(observer.fetchError == nil)
        observer.fetchDescriptor = JournalSearch.descriptor(matching: "")
        #expect(observer.results.count == 2)
    }

    @Test("The tasks fetch is the seed's format predicate and sort descriptors, with the category as a compound")
    func taskDescriptor() {
        let all = TaskListViewModel.descriptor(category: nil)
        #expect(all.formatPredicate == FormatPredicate(format: "isCompleted == NO"))
        #expect(
            all.sortDescriptors == [
                FormatSortDescriptor(key: "dueDate"), FormatSortDescriptor(key: "priority", ascending: false),
            ])
        #expect(
            TaskListViewModel.descriptor(category: "home").formatPredicate
                == FormatPredicate(format: "isCompleted == NO AND category == %@", "home"))
    }
}
