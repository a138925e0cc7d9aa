import Foundation
import SwiftData
import Testing

@Model final class SampleAnimal {
    var name: String
    var diet: String
    init(name: String, diet: String) {
        self.name = name
        self.diet = diet
    }
}

/// Apple's SwiftDataAnimals sample reloads its data by deleting every model of a class and inserting the same
/// sample instances again: the re-inserted models are stored, with the changes made to them meanwhile.
@Suite struct ReloadSampleDataTests {
    @Test(arguments: StoreKind.all) func modelsInsertedAgainAfterDeleteModelAreStored(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, SampleAnimal.self)
        let context = ModelContext(container)
        let samples = [SampleAnimal(name: "Dove", diet: "herbivorous"), SampleAnimal(name: "Fox", diet: "omnivorous")]
        for animal in samples { context.insert(animal) }
        let stray = SampleAnimal(name: "Stray", diet: "carnivorous")
        context.insert(stray)
        try context.save()

        // `reloadSampleData`: delete everything, insert the samples again.
        try context.delete(model: SampleAnimal.self)
        samples[1].diet = "carnivorous"
        for animal in samples { context.insert(animal) }
        let visible = try context.fetch(FetchDescriptor<SampleAnimal>(sortBy: [SortDescriptor(\.name)]))
        #expect(visible.map(\.name) == ["Dove", "Fox"])
        try context.save()

        let check = ModelContext(container)
        let stored = try check.fetch(FetchDescriptor<SampleAnimal>(sortBy: [SortDescriptor(\.name)]))
        #expect(stored.map(\.name) == ["Dove", "Fox"])
        #expect(stored.map(\.diet) == ["herbivorous", "carnivorous"])
        #expect(stray.isDeleted)
        #expect(samples.allSatisfy { !$0.isDeleted && $0.modelContext === context })
    }

    @Test(arguments: StoreKind.all) func aDeleteModelAfterTheReinsertDeletesThemAgain(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, SampleAnimal.self)
        let context = ModelContext(container)
        let dove = SampleAnimal(name: "Dove", diet: "herbivorous")
        context.insert(dove)
        try context.save()

        try context.delete(model: SampleAnimal.self)
        context.insert(dove)
        try context.delete(model: SampleAnimal.self)
        try context.save()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<SampleAnimal>()) == 0)
    }
}
