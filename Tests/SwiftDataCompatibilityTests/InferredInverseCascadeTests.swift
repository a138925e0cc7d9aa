import Foundation
import SwiftData
import Testing

// Declared as a public SwiftData sample declares them: both sides `.cascade`, no `inverse:` written, so the
// inverse is inferred; and a model whose optional to-one points at its own class.
@Model final class CascadeParent {
    var name: String
    @Relationship(deleteRule: .cascade)
    var items: [CascadeItem]?
    init(name: String) { self.name = name }
}

@Model final class CascadeItem {
    var details: String
    @Relationship(deleteRule: .cascade)
    var parent: CascadeParent?
    init(details: String) { self.details = details }
}

@Model class Employee {
    var name: String
    @Attribute(.unique) var emailAddress: String
    var manager: Employee?
    init(name: String, emailAddress: String, manager: Employee?) {
        self.name = name
        self.emailAddress = emailAddress
        self.manager = manager
    }
}

@Suite struct InferredInverseCascadeTests {
    @Test(arguments: StoreKind.all) func inferredInversesKeepBothSidesAndCascade(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, CascadeParent.self, CascadeItem.self)
        let context = ModelContext(container)
        let parent = CascadeParent(name: "box")
        context.insert(parent)
        let first = CascadeItem(details: "a")
        parent.items = [first, CascadeItem(details: "b")]
        #expect(first.parent === parent)
        try context.save()

        let reader = ModelContext(container)
        let stored = try #require(try reader.fetch(FetchDescriptor<CascadeParent>()).first)
        #expect(stored.items?.map(\.details).sorted() == ["a", "b"])
        reader.delete(stored)
        try reader.save()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<CascadeItem>()) == 0)
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<CascadeParent>()) == 0)
    }

    @Test(arguments: StoreKind.all) func aModelPointingAtItsOwnClassSavesAndUpserts(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, Employee.self)
        let context = ModelContext(container)
        let boss = Employee(name: "Ada", emailAddress: "ada@x", manager: nil)
        context.insert(Employee(name: "Bob", emailAddress: "bob@x", manager: boss))
        try context.save()
        // The unique email makes a second insert of the same address update the stored row.
        context.insert(Employee(name: "Bobby", emailAddress: "bob@x", manager: boss))
        try context.save()

        let reader = ModelContext(container)
        let bob = try #require(
            try reader.fetch(FetchDescriptor<Employee>(predicate: #Predicate { $0.emailAddress == "bob@x" })).first)
        #expect(bob.name == "Bobby")
        #expect(bob.manager?.name == "Ada")
        #expect(try reader.fetchCount(FetchDescriptor<Employee>()) == 2)
        let reports = try reader.fetch(
            FetchDescriptor<Employee>(predicate: #Predicate { $0.manager?.name == "Ada" }))
        #expect(reports.map(\.name) == ["Bobby"])
    }
}
