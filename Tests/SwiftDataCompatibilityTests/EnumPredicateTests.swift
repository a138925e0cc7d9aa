import Foundation
import SwiftData
import Testing

enum ChoreStatus: String, Codable, CaseIterable {
    case todo, doing, done
    var title: String { rawValue.capitalized }
}

enum ChorePriority: Int, Codable {
    case low = 1, normal = 5, high = 10
}

@Model final class Chore {
    var name: String
    var status: ChoreStatus
    var previousStatus: ChoreStatus?
    var priority: ChorePriority

    init(name: String, status: ChoreStatus, previousStatus: ChoreStatus? = nil, priority: ChorePriority = .normal) {
        self.name = name
        self.status = status
        self.previousStatus = previousStatus
        self.priority = priority
    }
}

/// `#Predicate`s over raw-value enum properties, as SwiftData apps write them.
@Suite struct EnumPredicateTests {
    private func choreContext(_ kind: StoreKind) throws -> ModelContext {
        let container = try freshContainer(kind, Chore.self)
        let context = ModelContext(container)
        context.insert(Chore(name: "dishes", status: .done, previousStatus: .doing, priority: .high))
        context.insert(Chore(name: "laundry", status: .todo, priority: .low))
        context.insert(Chore(name: "taxes", status: .doing, previousStatus: .todo))
        try context.save()
        return context
    }

    private func names(_ predicate: Predicate<Chore>, in context: ModelContext) throws -> [String] {
        var descriptor = FetchDescriptor<Chore>(predicate: predicate, sortBy: [SortDescriptor(\.name)])
        descriptor.includePendingChanges = false
        return try context.fetch(descriptor).map(\.name)
    }

    @Test(arguments: StoreKind.all) func comparesTheRawValue(_ kind: StoreKind) throws {
        let context = try choreContext(kind)
        #expect(try names(#Predicate { $0.status.rawValue == "done" }, in: context) == ["dishes"])
        #expect(try names(#Predicate { $0.status.rawValue != "done" }, in: context) == ["laundry", "taxes"])
        #expect(try names(#Predicate { $0.priority.rawValue >= 5 }, in: context) == ["dishes", "taxes"])
        let wanted = ChoreStatus.todo.rawValue
        #expect(try names(#Predicate { $0.status.rawValue == wanted }, in: context) == ["laundry"])
    }

    @Test(arguments: StoreKind.all) func comparesTheRawValueOfAnOptionalEnum(_ kind: StoreKind) throws {
        let context = try choreContext(kind)
        #expect(try names(#Predicate { $0.previousStatus?.rawValue == "todo" }, in: context) == ["taxes"])
        #expect(try names(#Predicate { $0.previousStatus?.rawValue == nil }, in: context) == ["laundry"])
    }

    @Test(arguments: StoreKind.all) func comparesWithACase(_ kind: StoreKind) throws {
        let context = try choreContext(kind)
        let done = ChoreStatus.done
        #expect(try names(#Predicate { $0.status == done }, in: context) == ["dishes"])
        // `$0.status == ChoreStatus.todo` and `== .todo` don't compile with Foundation's #Predicate ("key path
        // cannot refer to enum case", "member access without an explicit base is not supported"), on Apple's
        // platforms too; a captured case is how SwiftData code compares.
        let high = ChorePriority.high
        #expect(try names(#Predicate { $0.priority == high }, in: context) == ["dishes"])
        #expect(try names(#Predicate { $0.previousStatus == done }, in: context) == [])
    }

    @Test(arguments: StoreKind.all) func anotherComputedPropertyIsNotMistakenForTheRawValue(_ kind: StoreKind) throws {
        let context = try choreContext(kind)
        #expect(throws: SwiftDataError.self) {
            try names(#Predicate { $0.status.title == "Done" }, in: context)
        }
    }
}
