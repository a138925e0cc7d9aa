import Testing

@testable import Strata
@testable import StrataTestFixtures

@Suite("ModelCollector: models collected untyped, taken as a typed array")
struct ModelCollectorTests {
    final class Tracked {
        let number: Int
        init(_ number: Int) { self.number = number }
    }

    @Test("Models come out in order, past several growths, and the collector is empty after")
    func keepsOrderAcrossGrowth() {
        let collector = ModelCollector(capacity: 1)
        let models = (0..<1_000).map(Tracked.init)
        for model in models { collector.append(model) }
        #expect(collector.count == 1_000)
        let taken = collector.take(as: Tracked.self)
        #expect(taken.map(\.number) == Array(0..<1_000))
        #expect(zip(taken, models).allSatisfy { $0 === $1 })
        #expect(collector.count == 0)
        #expect(collector.take(as: Tracked.self).isEmpty)
    }

    @Test("Taken models are owned by the array alone: dropping it frees them")
    func takeMovesOwnership() {
        weak var first: Tracked?
        weak var last: Tracked?
        do {
            let collector = ModelCollector()
            for number in 0..<40 {
                let model = Tracked(number)
                if number == 0 { first = model }
                if number == 39 { last = model }
                collector.append(model)
            }
            var taken = collector.take(as: Tracked.self)
            #expect(first != nil && last != nil)
            taken.removeAll()
            #expect(first == nil)
            #expect(last == nil)
        }
    }

    @Test("A collector dropped without a take releases what it holds")
    func releasesUntakenModels() {
        weak var collected: Tracked?
        do {
            let collector = ModelCollector()
            let model = Tracked(1)
            collected = model
            collector.append(model)
        }
        #expect(collected == nil)
    }

    @Test("removeAll releases the models and the collector is reused: the same order, typed, and no model kept")
    func reusedAfterRemoveAll() {
        let collector = ModelCollector(capacity: 4)
        weak var firstPage: Tracked?
        do {
            let models = (0..<4).map(Tracked.init)
            firstPage = models[0]
            for model in models { collector.append(model) }
        }
        #expect(collector.withModels(as: Tracked.self) { $0.map(\.number) } == [0, 1, 2, 3])
        collector.removeAll()
        #expect(collector.count == 0)
        #expect(firstPage == nil)
        #expect(collector.withModels(as: Tracked.self) { $0.isEmpty })
        let second = (10..<16).map(Tracked.init)
        for model in second { collector.append(model) }
        #expect(collector.withModels(as: Tracked.self) { zip($0, second).allSatisfy { $0 === $1 } && $0.count == 6 })
        #expect(collector.take(as: Tracked.self).map(\.number) == Array(10..<16))
    }
}
