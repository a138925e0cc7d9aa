import Foundation
import SwiftData
import Testing

// A project that owns its guide through a required to-one with a cascade rule, as a video app's models write it;
// the guide has no inverse. Its name sorts before the project's, as the save's tables would otherwise be written.
@Model final class CascadeGuide {
    var title: String
    init(title: String) { self.title = title }
}

@Model final class CascadeProject {
    var name: String
    @Relationship(deleteRule: .cascade) var guide: CascadeGuide
    init(name: String, guide: CascadeGuide) {
        self.name = name
        self.guide = guide
    }
}

/// Deleting a model together with the model its required to-one names: the row holding the foreign key goes first,
/// so the key never names a deleted row (the store refuses that for a required relationship).
@Suite struct RequiredToOneDeletionTests {
    private func savedProject(_ container: ModelContainer) throws -> (ModelContext, CascadeProject) {
        let context = ModelContext(container)
        let project = CascadeProject(name: "Trip", guide: CascadeGuide(title: "Cuts"))
        context.insert(project)
        try context.save()
        return (context, project)
    }

    /// The owner deleted alone (its cascade deletes the target) or with the target deleted first.
    @Test(arguments: StoreKind.all, [false, true])
    func deletingTheOwnerAndItsRequiredTargetSaves(_ kind: StoreKind, deletingTheTargetFirst: Bool) throws {
        let container = try freshContainer(kind, CascadeProject.self, CascadeGuide.self)
        let (context, project) = try savedProject(container)
        if deletingTheTargetFirst { context.delete(project.guide) }
        context.delete(project)
        try context.save()
        let reader = ModelContext(container)
        #expect(try reader.fetchCount(FetchDescriptor<CascadeProject>()) == 0)
        #expect(try reader.fetchCount(FetchDescriptor<CascadeGuide>()) == 0)
    }

    @Test(arguments: StoreKind.all) func deletingManyOwnersWithTheirTargetsSaves(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, CascadeProject.self, CascadeGuide.self)
        let context = ModelContext(container)
        for index in 0..<20 {
            context.insert(CascadeProject(name: "\(index)", guide: CascadeGuide(title: "\(index)")))
        }
        try context.save()
        try context.delete(model: CascadeProject.self, where: #Predicate { $0.name < "5" })
        for project in try context.fetch(FetchDescriptor<CascadeProject>()) where project.name.hasPrefix("9") {
            context.delete(project)
        }
        try context.save()
        let reader = ModelContext(container)
        // 15 names sort before "5" ("0"…"4", "10"…"19"), and one more starts with "9": "5"…"8" are left.
        #expect(
            try reader.fetch(FetchDescriptor<CascadeProject>(sortBy: [SortDescriptor(\.name)])).map(\.name) == [
                "5", "6", "7", "8",
            ])
        #expect(
            try reader.fetch(FetchDescriptor<CascadeGuide>(sortBy: [SortDescriptor(\.title)])).map(\.title) == [
                "5", "6", "7", "8",
            ])
    }
}
