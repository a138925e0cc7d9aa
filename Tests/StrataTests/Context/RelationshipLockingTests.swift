import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

@Model
final class LockingTeam {
    var name: String
    @Relationship(inverse: \LockingPlayer.team) var players: [LockingPlayer] = []

    init(name: String) {
        self.name = name
    }
}

@Model
final class LockingPlayer {
    var name: String
    var team: LockingTeam?

    init(name: String, team: LockingTeam? = nil) {
        self.name = name
        self.team = team
    }
}

/// Optimistic locking of relationship-only changes: a to-one relationship is stored in its model's row, so changing
/// it checks and moves the row's version as an attribute change does (Core Data's `Z_OPT` moves the same way).
@Suite("Optimistic locking of relationship changes")
struct RelationshipLockingTests {
    /// A store with two teams and a player in the first, and two independent contexts over it.
    private func twoWriters(_ kind: StoreKind) throws -> (TestStore, ModelContext, ModelContext) {
        let store = TestStore(kind)
        let seed = ModelContext(try store.container(LockingTeam.self, LockingPlayer.self))
        let red = LockingTeam(name: "red")
        seed.insert(red)
        seed.insert(LockingTeam(name: "blue"))
        seed.insert(LockingPlayer(name: "ann", team: red))
        try seed.save()
        let first = ModelContext(try store.container(LockingTeam.self, LockingPlayer.self))
        let second = ModelContext(try store.container(LockingTeam.self, LockingPlayer.self))
        return (store, first, second)
    }

    private func player(in context: ModelContext) throws -> LockingPlayer {
        try #require(try context.fetch(FetchDescriptor<LockingPlayer>()).first)
    }

    private func team(_ name: String, in context: ModelContext) throws -> LockingTeam {
        try #require(try context.fetch(FetchDescriptor<LockingTeam>(predicate: #Predicate { $0.name == name })).first)
    }

    @Test("Changing only a to-one relationship moves the row's version", arguments: StoreKind.all)
    func relationshipOnlyChangeBumpsVersion(_ kind: StoreKind) throws {
        let (store, first, _) = try twoWriters(kind)
        let ann = try player(in: first)
        #expect(ann.persistentBackingData.rowVersion == 0)
        ann.team = try team("blue", in: first)
        try first.save()
        #expect(ann.persistentBackingData.rowVersion == 1)
        let stored = try player(in: ModelContext(try store.container(LockingTeam.self, LockingPlayer.self)))
        #expect(stored.persistentBackingData.rowVersion == 1)
        #expect(stored.team?.name == "blue")
        // The model's version stays in step with the row, so its next save doesn't conflict with itself.
        first.mergePolicy = .error
        ann.team = nil
        try first.save()
        #expect(ann.persistentBackingData.rowVersion == 2)
    }

    @Test(
        "Under .error a relationship-only change of a row saved elsewhere conflicts, names the relationship, writes nothing",
        arguments: StoreKind.all)
    func relationshipConflictUnderError(_ kind: StoreKind) throws {
        let (store, first, second) = try twoWriters(kind)
        first.mergePolicy = .error
        let mine = try player(in: first)
        let theirs = try player(in: second)
        theirs.team = nil
        try second.save()
        mine.team = try team("blue", in: first)
        do {
            try first.save()
            Issue.record("the save should conflict")
        } catch StrataError.mergeConflict(let conflicts) {
            let conflict = try #require(conflicts.first)
            #expect(conflicts.count == 1)
            #expect(conflict.persistentModelID == mine.persistentModelID)
            #expect(conflict.conflictingProperties == ["team"])
            #expect(conflict.expectedVersion == 0 && conflict.storedVersion == 1)
        }
        #expect(first.hasChanges)
        let stored = try player(in: ModelContext(try store.container(LockingTeam.self, LockingPlayer.self)))
        #expect(stored.team == nil)
    }

    @Test(
        "Under .error an attribute change elsewhere also stops a relationship-only change (the row moved)",
        arguments: StoreKind.all)
    func attributeChangeElsewhereStopsRelationshipChange(_ kind: StoreKind) throws {
        let (store, first, second) = try twoWriters(kind)
        // The store's files live as long as the test: a save to a deleted file is refused.
        defer { withExtendedLifetime(store) {} }
        first.mergePolicy = .error
        let mine = try player(in: first)
        let theirs = try player(in: second)
        theirs.name = "anne"
        try second.save()
        mine.team = try team("blue", in: first)
        #expect(throws: StrataError.self) { try first.save() }
        // Retried as the docs say (read again in a fresh context), it succeeds.
        let retry = ModelContext(first.container)
        retry.mergePolicy = .error
        let again = try player(in: retry)
        #expect(again.name == "anne")
        again.team = try team("blue", in: retry)
        try retry.save()
        #expect(again.persistentBackingData.rowVersion == 2)
    }

    @Test(
        "Under the default policy a relationship-only change of a row saved elsewhere is written; versions agree afterwards",
        arguments: StoreKind.all)
    func relationshipChangeUnderDefaultPolicy(_ kind: StoreKind) throws {
        let (store, first, second) = try twoWriters(kind)
        let mine = try player(in: first)
        let theirs = try player(in: second)
        theirs.name = "anne"
        try second.save()
        mine.team = try team("blue", in: first)
        try first.save()
        let stored = try player(in: ModelContext(try store.container(LockingTeam.self, LockingPlayer.self)))
        #expect(stored.name == "anne")
        #expect(stored.team?.name == "blue")
        #expect(stored.persistentBackingData.rowVersion == 2)
        #expect(mine.persistentBackingData.rowVersion == 2)
        first.mergePolicy = .error
        mine.name = "ann again"
        try first.save()
    }

    @Test("Adding to a to-many moves the version of the member whose foreign key changed", arguments: StoreKind.all)
    func toManyChangeBumpsMemberVersion(_ kind: StoreKind) throws {
        let (store, first, second) = try twoWriters(kind)
        // The store's files live as long as the test: a save to a deleted file is refused.
        defer { withExtendedLifetime(store) {} }
        second.mergePolicy = .error
        let blue = try team("blue", in: first)
        let ann = try player(in: first)
        blue.players.append(ann)
        try first.save()
        #expect(ann.persistentBackingData.rowVersion == 1)
        // A context that read the player before that save can't overwrite the move unseen. (Its next fetch would
        // merge the move, so it fetches what it needs first.)
        let stale = try player(in: second)
        _ = stale.name
        let red = try team("red", in: second)
        let other = ModelContext(second.container)
        let moved = try player(in: other)
        moved.team = nil
        try other.save()
        stale.team = red
        #expect(throws: StrataError.self) { try second.save() }
    }
}
