import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

@Model
final class LockingArticle {
    var title: String
    @Relationship(inverse: \LockingLabel.articles) var labels: [LockingLabel] = []

    init(title: String) {
        self.title = title
    }
}

@Model
final class LockingLabel {
    var name: String
    var articles: [LockingArticle] = []

    init(name: String) {
        self.name = name
    }
}

/// Optimistic locking of many-to-many changes: a join-table row is a change to both models' rows, checked against
/// and moving their versions, so `.error` can't drop a relationship change saved elsewhere.
@Suite("Optimistic locking of join-table changes")
struct JoinTableLockingTests {
    /// A store holding an article labelled "swift", a "linux" label, and two independent contexts over it.
    private func twoWriters(_ kind: StoreKind) throws -> (TestStore, ModelContext, ModelContext) {
        let store = TestStore(kind)
        let seed = ModelContext(try store.container(LockingArticle.self, LockingLabel.self))
        let article = LockingArticle(title: "Strata")
        seed.insert(article)
        let swift = LockingLabel(name: "swift")
        seed.insert(swift)
        seed.insert(LockingLabel(name: "linux"))
        article.labels.append(swift)
        try seed.save()
        let first = ModelContext(try store.container(LockingArticle.self, LockingLabel.self))
        let second = ModelContext(try store.container(LockingArticle.self, LockingLabel.self))
        return (store, first, second)
    }

    private func article(in context: ModelContext) throws -> LockingArticle {
        try #require(try context.fetch(FetchDescriptor<LockingArticle>()).first)
    }

    private func label(_ name: String, in context: ModelContext) throws -> LockingLabel {
        try #require(try context.fetch(FetchDescriptor<LockingLabel>(predicate: #Predicate { $0.name == name })).first)
    }

    private func storedLabels(_ store: TestStore) throws -> [String] {
        let context = ModelContext(try store.container(LockingArticle.self, LockingLabel.self))
        return try article(in: context).labels.map(\.name).sorted()
    }

    @Test(
        "Under .error a join-table change of a row whose relationship changed elsewhere conflicts and writes nothing",
        arguments: StoreKind.all)
    func joinChangeConflictsUnderError(_ kind: StoreKind) throws {
        let (store, first, second) = try twoWriters(kind)
        first.mergePolicy = .error
        let mine = try article(in: first)
        #expect(mine.labels.map(\.name) == ["swift"])
        // Elsewhere, after this context read the article: another label added.
        try article(in: second).labels.append(try label("linux", in: second))
        try second.save()
        mine.labels.removeAll()
        do {
            try first.save()
            Issue.record("the save should conflict")
        } catch StrataError.mergeConflict(let conflicts) {
            #expect(conflicts.contains { $0.persistentModelID == mine.persistentModelID })
            #expect(conflicts.allSatisfy { !$0.isDeletion })
        }
        #expect(first.hasChanges)
        #expect(try storedLabels(store) == ["linux", "swift"])
    }

    @Test(
        "A join-table change moves both rows' versions; under the default policy a change elsewhere is merged",
        arguments: StoreKind.all)
    func joinChangeUnderDefaultPolicy(_ kind: StoreKind) throws {
        let (store, first, second) = try twoWriters(kind)
        let mine = try article(in: first)
        let linux = try label("linux", in: first)
        #expect(mine.persistentBackingData.rowVersion == 0)
        let theirs = try article(in: second)
        theirs.title = "Strata on Linux"
        try second.save()
        mine.labels.append(linux)
        try first.save()
        #expect(mine.persistentBackingData.rowVersion == 2)
        #expect(linux.persistentBackingData.rowVersion == 1)
        #expect(mine.title == "Strata on Linux")
        #expect(try storedLabels(store) == ["linux", "swift"])
        // The models' versions agree with their rows: a later change under .error doesn't conflict with itself.
        first.mergePolicy = .error
        mine.labels.removeAll { $0.name == "swift" }
        try first.save()
        #expect(try storedLabels(store) == ["linux"])
    }
}
