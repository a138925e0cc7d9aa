import Foundation
import Strata
import Testing

@Model final class RegistryEntry {
    var number: Int
    init(number: Int) { self.number = number }
}

@Suite("Model registry")
struct ModelRegistryTests {
    /// Three saved entries (keys 1–3) and their entity's identity key, from a store in memory.
    private func savedEntries() throws -> (
        container: ModelContainer, entries: [RegistryEntry], entity: ObjectIdentifier
    ) {
        let container = try ModelContainer(
            for: RegistryEntry.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        let entries = (1...3).map { RegistryEntry(number: $0) }
        for entry in entries { context.insert(entry) }
        try context.save()
        let entity = try #require(entries[0].persistentBackingData.entity)
        return (container, entries, entity.identityKey)
    }

    @Test("Registered models are found by entity and key, counted, and visited")
    func registersAndLooksUp() throws {
        let (container, entries, entity) = try savedEntries()
        _ = container
        let registry = ModelRegistry()
        #expect(registry.count(of: entity) == 0)
        for entry in entries {
            registry.register(entry, for: try #require(entry.persistentBackingData.primaryKey), of: entity)
        }
        #expect(registry.count(of: entity) == 3)
        for entry in entries {
            #expect(registry[entity, try #require(entry.persistentBackingData.primaryKey)] === entry)
        }
        #expect(registry[entity, 99] == nil)
        var visited: [Int64] = []
        registry.forEachModel { key, model in
            visited.append(key)
            #expect(model.persistentBackingData.primaryKey == key)
        }
        #expect(visited.sorted() == [1, 2, 3])
    }

    @Test("A removal counts in the revision only when it takes the model out; a save always counts")
    func removalsAndSavesMoveTheRevision() throws {
        let (container, entries, entity) = try savedEntries()
        _ = container
        let registry = ModelRegistry()
        for entry in entries {
            registry.register(entry, for: try #require(entry.persistentBackingData.primaryKey), of: entity)
        }
        let start = registry.revision
        // Another model registered for key 2 is not taken out when the removal names a different one.
        registry.remove(2, of: entity, ifItIs: entries[0])
        #expect(registry[entity, 2] === entries[1])
        #expect(registry.revision == start)
        registry.remove(2, of: entity, ifItIs: entries[1])
        #expect(registry[entity, 2] == nil)
        #expect(registry.revision == start + 1)
        registry.remove(2, of: entity)
        #expect(registry.revision == start + 1, "nothing left to remove")
        registry.remove(3, of: entity)
        #expect(registry[entity, 3] == nil)
        #expect(registry.revision == start + 2)
        registry.noteSave()
        #expect(registry.revision == start + 3)
        registry.removeAll()
        #expect(registry.count(of: entity) == 0)
        #expect(registry.revision == start + 4)
    }

    @Test("A map taken out is empty in the registry until it is put back with what was added to it")
    func takesAndRestoresAMap() throws {
        let (container, entries, entity) = try savedEntries()
        _ = container
        let registry = ModelRegistry()
        registry.register(entries[0], for: 1, of: entity)
        var map = registry.takeMap(of: entity)
        #expect(registry.count(of: entity) == 0)
        #expect(map[1] === entries[0])
        map.insert(entries[1], for: 2)
        registry.restoreMap(map, of: entity)
        #expect(registry.count(of: entity) == 2)
        #expect(registry[entity, 2] === entries[1])
    }
}
