import Foundation
import SwiftData
import Testing

// A model ordered by its own `<`, its conformances stated in the class's own clause, as apps sort lists of them.
@Model final class SeedCourse: Identifiable, Comparable {
    var title: String
    var position: Int

    init(title: String, position: Int) {
        self.title = title
        self.position = position
    }

    static func < (lhs: SeedCourse, rhs: SeedCourse) -> Bool { lhs.position < rhs.position }
}

// Its own `<` and `<=`, and an equality of its own beside them.
@Model final class SeedDeadline: Comparable {
    var day: Int

    init(day: Int) { self.day = day }

    static func == (lhs: SeedDeadline, rhs: SeedDeadline) -> Bool { lhs.day == rhs.day }
    static func < (lhs: SeedDeadline, rhs: SeedDeadline) -> Bool { lhs.day < rhs.day }
    static func <= (lhs: SeedDeadline, rhs: SeedDeadline) -> Bool { lhs.day <= rhs.day }
}

// Arithmetic of its own, stated through a protocol that implies the one requiring the operators.
@Model final class SeedTally: Strideable {
    var count: Int

    init(count: Int) { self.count = count }

    static func < (lhs: SeedTally, rhs: SeedTally) -> Bool { lhs.count < rhs.count }
    func distance(to other: SeedTally) -> Int { other.count - count }
    func advanced(by n: Int) -> SeedTally { SeedTally(count: count + n) }
}

@Suite struct OwnOperatorTests {
    private func genericallyLess<T: Comparable>(_ lhs: T, _ rhs: T) -> Bool { lhs < rhs }
    private func genericallyLessOrEqual<T: Comparable>(_ lhs: T, _ rhs: T) -> Bool { lhs <= rhs }

    @Test func theModelsOwnOrderingIsUsed() {
        let courses = [SeedCourse(title: "Dessert", position: 3), SeedCourse(title: "Starter", position: 1)]
        #expect(courses.sorted().map(\.title) == ["Starter", "Dessert"])
        #expect(courses.min()?.title == "Starter")
        #expect(genericallyLess(courses[1], courses[0]))
        #expect(courses[0] > courses[1])
        // Its equality is still identity: no `==` of its own.
        #expect(courses[0] != SeedCourse(title: "Dessert", position: 3))
    }

    @Test func everyOwnComparisonOperatorIsTheWitness() {
        let monday = SeedDeadline(day: 1)
        #expect(genericallyLessOrEqual(monday, SeedDeadline(day: 1)))
        #expect(!genericallyLess(monday, SeedDeadline(day: 1)))
        #expect(monday == SeedDeadline(day: 1))
        #expect([SeedDeadline(day: 4), monday].sorted().map(\.day) == [1, 4])
    }

    @Test func aProtocolImplyingComparableUsesTheOwnOperator() {
        let low = SeedTally(count: 2)
        #expect(genericallyLess(low, SeedTally(count: 5)))
        #expect(low.advanced(by: 3).count == 5)
    }

    @Test(arguments: StoreKind.all) func modelsWithTheirOwnOrderingAreStoredAndFetched(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, SeedCourse.self)
        let context = ModelContext(container)
        context.insert(SeedCourse(title: "Main", position: 2))
        context.insert(SeedCourse(title: "Starter", position: 1))
        try context.save()
        let fetched = try ModelContext(container).fetch(FetchDescriptor<SeedCourse>())
        #expect(fetched.sorted().map(\.title) == ["Starter", "Main"])
        #expect(fetched.map(\.id).count == 2)
    }
}
