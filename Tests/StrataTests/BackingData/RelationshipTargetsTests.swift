import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

@Suite("Relationship targets kept by a model")
struct RelationshipTargetsTests {
    private func model(_ title: String) -> any PersistentModel { Book(title: title, author: "", publisher: "") }

    @Test("Each relationship keeps its own models; one model, a list and an empty list read back as stored")
    func keepsEachRelationship() {
        let (first, second, third) = (model("a"), model("b"), model("c"))
        var targets = RelationshipTargets()
        #expect(targets.isEmpty && !targets.contains(0))
        targets.setTarget(first, at: 2)
        targets[5] = [second, third]
        targets[7] = []
        #expect(targets[2]?.map(ObjectIdentifier.init) == [ObjectIdentifier(first)])
        #expect(targets[5]?.map(ObjectIdentifier.init) == [ObjectIdentifier(second), ObjectIdentifier(third)])
        #expect(targets[7]?.isEmpty == true)
        #expect(targets[3] == nil && !targets.contains(3))
        #expect(targets.firstTarget(at: 5).isStored && targets.firstTarget(at: 5).model === second)
        #expect(targets.firstTarget(at: 7).isStored && targets.firstTarget(at: 7).model == nil)
        #expect(!targets.firstTarget(at: 3).isStored)
        #expect(Set(targets.map(\.key)) == [2, 5, 7])
    }

    @Test("Forgetting the first relationship stored keeps the others, and forgetting all empties it")
    func forgettingKeepsTheOthers() {
        let (first, second) = (model("a"), model("b"))
        var targets = RelationshipTargets()
        targets.setTarget(first, at: 1)
        targets.setTarget(second, at: 4)
        targets[1] = nil
        #expect(!targets.contains(1))
        #expect(targets.firstTarget(at: 4).model === second)
        #expect(targets.map(\.key) == [4])
        targets.setTarget(first, at: 1)
        targets.removeAll()
        #expect(targets.isEmpty && !targets.contains(1) && !targets.contains(4))
    }

    @Test("Relationship 0 is stored only once set, and reads as not stored again once forgotten")
    func relationshipZeroIsNotStoredUntilSet() {
        let (first, second) = (model("a"), model("b"))
        var targets = RelationshipTargets()
        #expect(!targets.contains(0) && !targets.firstTarget(at: 0).isStored && targets[0] == nil)
        targets.setTarget(first, at: 0)
        targets.setTarget(second, at: 3)
        #expect(targets.firstTarget(at: 0).model === first && targets.firstTarget(at: 3).model === second)
        targets[0] = nil
        #expect(!targets.contains(0) && !targets.firstTarget(at: 0).isStored)
        #expect(targets.firstTarget(at: 3).model === second)
        targets[3] = nil
        #expect(targets.isEmpty && !targets.contains(0) && !targets.contains(3) && !targets.firstTarget(at: 3).isStored)
    }
}
