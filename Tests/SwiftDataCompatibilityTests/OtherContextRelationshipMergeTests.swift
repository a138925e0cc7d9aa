import Foundation
import Observation
import SwiftData
import Testing

@Model final class MergeUser {
    var handle: String = ""
    init(handle: String) { self.handle = handle }
}

@Model final class MergeDocument {
    var title: String = ""
    // One-sided: no inverse, kept in a join table.
    @Relationship var reviewers: [MergeUser] = []
    // One-sided to-one.
    var owner: MergeUser?
    init(title: String) { self.title = title }
}

/// A background importer as apps write theirs, changing relationships from its own context.
@ModelActor actor MergeImporter {
    private func document(_ title: String) throws -> MergeDocument? {
        try modelContext.fetch(FetchDescriptor<MergeDocument>(predicate: #Predicate { $0.title == title })).first
    }

    private func user(_ handle: String) throws -> MergeUser? {
        try modelContext.fetch(FetchDescriptor<MergeUser>(predicate: #Predicate { $0.handle == handle })).first
    }

    func addReviewer(_ handle: String, to title: String, new: Bool) throws {
        guard let document = try document(title) else { return }
        let user: MergeUser
        if new {
            user = MergeUser(handle: handle)
            modelContext.insert(user)
        } else if let existing = try self.user(handle) {
            user = existing
        } else {
            return
        }
        document.reviewers.append(user)
        try modelContext.save()
    }

    func removeReviewer(_ handle: String, from title: String) throws {
        guard let document = try document(title) else { return }
        document.reviewers.removeAll { $0.handle == handle }
        try modelContext.save()
    }

    func setOwner(_ handle: String, of title: String) throws {
        guard let document = try document(title) else { return }
        document.owner = try user(handle)
        try modelContext.save()
    }

    func moveEntry(titled title: String, toTagNamed name: String) throws {
        let entry = try modelContext.fetch(FetchDescriptor<MergeEntry>(predicate: #Predicate { $0.title == title }))
            .first
        entry?.tag = try modelContext.fetch(FetchDescriptor<MergeTag>(predicate: #Predicate { $0.name == name }))
            .first
        try modelContext.save()
    }

    func addTag(named name: String) throws {
        modelContext.insert(MergeTag(name: name))
        try modelContext.save()
    }

    func labelExisting(tagNamed name: String, with text: String) throws {
        let tag = try modelContext.fetch(FetchDescriptor<MergeTag>(predicate: #Predicate { $0.name == name })).first
        let label = try modelContext.fetch(FetchDescriptor<MergeLabel>(predicate: #Predicate { $0.text == text }))
            .first
        if let tag, let label { tag.labels.append(label) }
        try modelContext.save()
    }

    func deleteDocument(_ title: String) throws {
        if let document = try document(title) { modelContext.delete(document) }
        try modelContext.save()
    }
}

/// Relationships another context changed reach the models this context holds, and their observers hear of it, as
/// attribute changes do: lists over a background import refresh.
@Suite @MainActor struct OtherContextRelationshipMergeTests {
    private func observe(_ read: @escaping () -> Void) -> ObservedFlag {
        let flag = ObservedFlag()
        withObservationTracking(read) { flag.fire() }
        return flag
    }

    /// Lets the main context's scheduled merge run, as a view's next update would.
    private func settle(_ done: () -> Bool) async {
        for _ in 0..<200 where !done() { await Task.yield() }
    }

    private func taggedContainer(_ kind: StoreKind) throws -> (ModelContainer, MergeTag) {
        let container = try freshContainer(kind, MergeTag.self, MergeEntry.self, MergeLabel.self)
        let context = container.mainContext
        let tag = MergeTag(name: "food")
        context.insert(tag)
        context.insert(MergeEntry(title: "bread", tag: tag))
        context.insert(MergeTag(name: "drink"))
        context.insert(MergeLabel(text: "weekly"))
        try context.save()
        #expect(tag.entries.map(\.title) == ["bread"])
        #expect(tag.labels.isEmpty)
        return (container, tag)
    }

    private func documentContainer(_ kind: StoreKind) throws -> (ModelContainer, MergeDocument) {
        let container = try freshContainer(kind, MergeDocument.self, MergeUser.self)
        let context = container.mainContext
        let document = MergeDocument(title: "spec")
        context.insert(document)
        let ann = MergeUser(handle: "ann")
        context.insert(ann)
        context.insert(MergeUser(handle: "bob"))
        document.reviewers = [ann]
        try context.save()
        #expect(document.reviewers.map(\.handle) == ["ann"])
        #expect(document.owner == nil)
        return (container, document)
    }

    @Test(arguments: StoreKind.all) func anInsertedMemberNotifiesTheToManysObservers(_ kind: StoreKind) async throws {
        let (container, tag) = try taggedContainer(kind)
        let observed = observe { _ = tag.entries }
        try await MergeEntryService(modelContainer: container).addEntry(titled: "eggs", toTagNamed: "food")
        await settle { observed.didFire }
        #expect(observed.didFire)
        #expect(Set(tag.entries.map(\.title)) == ["bread", "eggs"])
    }

    @Test(arguments: StoreKind.all) func aRemovedMemberNotifiesTheToManysObservers(_ kind: StoreKind) async throws {
        let (container, tag) = try taggedContainer(kind)
        let observed = observe { _ = tag.entries }
        try await MergeEntryService(modelContainer: container).deleteEntry(titled: "bread")
        _ = try container.mainContext.fetchCount(FetchDescriptor<MergeTag>())
        #expect(observed.didFire)
        #expect(tag.entries.isEmpty)
    }

    @Test(arguments: StoreKind.all) func aMovedMemberNotifiesBothListsAndItsToOne(_ kind: StoreKind) async throws {
        let (container, tag) = try taggedContainer(kind)
        let drink = try #require(
            try container.mainContext.fetch(FetchDescriptor<MergeTag>(predicate: #Predicate { $0.name == "drink" }))
                .first)
        let bread = try #require(tag.entries.first)
        #expect(drink.entries.isEmpty)
        let fromList = observe { _ = tag.entries }
        let toList = observe { _ = drink.entries }
        let toOne = observe { _ = bread.tag }
        try await MergeImporter(modelContainer: container).moveEntry(titled: "bread", toTagNamed: "drink")
        _ = try container.mainContext.fetchCount(FetchDescriptor<MergeTag>())
        #expect(fromList.didFire && toList.didFire && toOne.didFire)
        #expect(tag.entries.isEmpty)
        #expect(drink.entries.map(\.title) == ["bread"])
        #expect(bread.tag === drink)
    }

    @Test(arguments: StoreKind.all) func aManyToManyMemberNotifiesItsObservers(_ kind: StoreKind) async throws {
        let (container, tag) = try taggedContainer(kind)
        let observed = observe { _ = tag.labels }
        try await MergeImporter(modelContainer: container).labelExisting(tagNamed: "food", with: "weekly")
        _ = try container.mainContext.fetchCount(FetchDescriptor<MergeTag>())
        #expect(observed.didFire)
        #expect(tag.labels.map(\.text) == ["weekly"])
    }

    @Test(arguments: StoreKind.all) func aOneSidedToManyReadsTheMembersAddedElsewhere(_ kind: StoreKind) async throws {
        let (container, document) = try documentContainer(kind)
        let observed = observe { _ = document.reviewers }
        let importer = MergeImporter(modelContainer: container)
        try await importer.addReviewer("bob", to: "spec", new: false)
        container.mainContext.processPendingChanges()
        _ = try container.mainContext.fetch(FetchDescriptor<MergeDocument>())
        #expect(observed.didFire)
        #expect(Set(document.reviewers.map(\.handle)) == ["ann", "bob"])

        try await importer.addReviewer("cy", to: "spec", new: true)
        _ = try container.mainContext.fetch(FetchDescriptor<MergeDocument>())
        #expect(Set(document.reviewers.map(\.handle)) == ["ann", "bob", "cy"])

        let removal = observe { _ = document.reviewers }
        try await importer.removeReviewer("ann", from: "spec")
        _ = try container.mainContext.fetch(FetchDescriptor<MergeDocument>())
        #expect(removal.didFire)
        #expect(Set(document.reviewers.map(\.handle)) == ["bob", "cy"])
    }

    @Test(arguments: StoreKind.all) func theMainContextMergesAOneSidedToManyByItself(_ kind: StoreKind) async throws {
        let (container, document) = try documentContainer(kind)
        let observed = observe { _ = document.reviewers }
        try await MergeImporter(modelContainer: container).addReviewer("bob", to: "spec", new: false)
        await settle { observed.didFire }
        #expect(observed.didFire)
        #expect(Set(document.reviewers.map(\.handle)) == ["ann", "bob"])
    }

    @Test(arguments: StoreKind.all) func aOneSidedToOneSetElsewhereIsReadAndObserved(_ kind: StoreKind) async throws {
        let (container, document) = try documentContainer(kind)
        let observed = observe { _ = document.owner }
        try await MergeImporter(modelContainer: container).setOwner("bob", of: "spec")
        _ = try container.mainContext.fetchCount(FetchDescriptor<MergeDocument>())
        #expect(observed.didFire)
        #expect(document.owner?.handle == "bob")
    }

    @Test(arguments: StoreKind.all) func aContextOfItsOwnReadsAOneSidedToManyChangedElsewhere(_ kind: StoreKind) throws
    {
        let container = try freshContainer(kind, MergeDocument.self, MergeUser.self)
        let reader = ModelContext(container)
        let writer = ModelContext(container)
        let document = MergeDocument(title: "spec")
        writer.insert(document)
        let ann = MergeUser(handle: "ann")
        writer.insert(ann)
        document.reviewers = [ann]
        try writer.save()
        let read = try #require(try reader.fetch(FetchDescriptor<MergeDocument>()).first)
        #expect(read.reviewers.map(\.handle) == ["ann"])

        let bob = MergeUser(handle: "bob")
        writer.insert(bob)
        document.reviewers.append(bob)
        try writer.save()
        reader.processPendingChanges()
        _ = try reader.fetch(FetchDescriptor<MergeDocument>())
        #expect(Set(read.reviewers.map(\.handle)) == ["ann", "bob"])
    }
}

/// Records that an observation fired, from whichever thread.
final class ObservedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var fired = false
    func fire() { lock.withLock { fired = true } }
    var didFire: Bool { lock.withLock { fired } }
}
