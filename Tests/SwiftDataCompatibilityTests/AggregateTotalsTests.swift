import Foundation
import SwiftData
import Testing

@Model final class SpendCategory {
    var name: String
    @Relationship(inverse: \Spend.category) var spends: [Spend] = []
    init(name: String) { self.name = name }
}

@Model final class Spend {
    var cents: Int
    var date: Date
    var category: SpendCategory?
    init(cents: Int, date: Date, category: SpendCategory?) {
        self.cents = cents
        self.date = date
        self.category = category
    }
}

/// A budgeting screen's totals, written as a SwiftData app writes its fetches: "spent per category this month".
@Suite struct AggregateTotalsTests {
    @Test(arguments: StoreKind.all) func spentPerCategoryThisMonth(_ kind: StoreKind) throws {
        let context = ModelContext(try freshContainer(kind, Spend.self, SpendCategory.self))
        let food = SpendCategory(name: "Food")
        let rent = SpendCategory(name: "Rent")
        let start = Date(timeIntervalSinceReferenceDate: 1_000_000)
        let spends = [
            (1200, 10.0, food), (800, 20, food), (90_000, 30, rent), (500, -10, food), (300, 40, nil),
        ]
        for (cents, offset, category) in spends {
            context.insert(Spend(cents: cents, date: start.addingTimeInterval(offset), category: category))
        }
        try context.save()

        let descriptor = AggregateDescriptor(
            predicate: #Predicate<Spend> { $0.date >= start },
            groupBy: \.category?.name,
            aggregates: .sum(\.cents), .count,
            sortBy: [AggregateSortDescriptor(.sum(\Spend.cents), order: .reverse)])
        let totals = try context.fetch(descriptor)
        #expect(totals.map(\.key) == ["Rent", "Food", nil])
        #expect(totals.map(\.value.0) == [90_000, 2000, 300])
        #expect(totals.map(\.value.1) == [1, 2, 1])

        // Unsaved models are not totalled until saved.
        context.insert(Spend(cents: 5, date: start, category: rent))
        let count = AggregateDescriptor<Spend, (), Int>(aggregates: .count)
        #expect(try context.fetch(count).first?.value == 5)
        try context.save()
        #expect(try context.fetch(count).first?.value == 6)
    }
}

/// The same screen ported from Core Data, whose dictionary fetch named its properties and result expressions in
/// strings: `propertiesToGroupBy`, `@sum`, `@count`, a `havingPredicate` and a sort by the sum.
@Suite struct PortedAggregateTotalsTests {
    @Test(arguments: StoreKind.all) func spentPerCategoryByName(_ kind: StoreKind) throws {
        let context = ModelContext(try freshContainer(kind, Spend.self, SpendCategory.self))
        let food = SpendCategory(name: "Food")
        let rent = SpendCategory(name: "Rent")
        let start = Date(timeIntervalSinceReferenceDate: 1_000_000)
        for (cents, offset, category) in [(1200, 10.0, food), (800, 20, food), (90_000, 30, rent), (300, 40, nil)] {
            context.insert(Spend(cents: cents, date: start.addingTimeInterval(offset), category: category))
        }
        try context.save()

        var request = FormatAggregateDescriptor<Spend>(
            propertiesToFetch: ["category.name", "@sum.cents", "@count"], propertiesToGroupBy: ["category.name"])
        request.predicate = FormatPredicate(format: "date >= %@", start)
        request.havingPredicate = FormatPredicate(format: "@sum.cents >= %d", 500)
        request.sortDescriptors = [FormatSortDescriptor(key: "@sum.cents", ascending: false)]
        let rows = try context.fetch(request)
        #expect(rows.map { $0["category.name"]?.stringValue } == ["Rent", "Food"])
        #expect(rows.map { $0["@sum.cents"]?.intValue } == [90_000, 2000])
        #expect(rows.map { $0["@count"]?.intValue } == [1, 2])
    }
}
