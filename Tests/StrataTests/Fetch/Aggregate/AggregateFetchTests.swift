import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

enum TallyKind: String, Codable, CaseIterable {
    case food, travel, rent
}

@Model final class TallyMerchant {
    var name: String
    var city: String?
    var rating: Int
    @Relationship(inverse: \TallyExpense.merchant) var expenses: [TallyExpense] = []
    init(name: String, city: String?, rating: Int) {
        self.name = name
        self.city = city
        self.rating = rating
    }
}

@Model final class TallyExpense {
    var category: String
    var kind: TallyKind
    var cents: Int
    var tip: Int?
    var small: Int8
    var amount: Double
    var date: Date
    var merchant: TallyMerchant?
    var label: String { category + "!" }

    init(
        category: String, kind: TallyKind, cents: Int, tip: Int? = nil, small: Int8 = 0, amount: Double = 0,
        date: Date = Date(timeIntervalSinceReferenceDate: 0), merchant: TallyMerchant? = nil
    ) {
        self.category = category
        self.kind = kind
        self.cents = cents
        self.tip = tip
        self.small = small
        self.amount = amount
        self.date = date
        self.merchant = merchant
    }
}

/// Expenses made from a fixed seed, and the same expenses as plain values for the oracle.
struct TallyData {
    struct Row {
        var category: String
        var kind: TallyKind
        var cents: Int
        var tip: Int?
        var amount: Double
        var date: Date
        var merchant: Int?
    }
    static let merchants: [(name: String, city: String?, rating: Int)] = [
        ("Corner", "Lyon", 4), ("Bistro", nil, 2), ("Station", "Paris", 5), ("Market", "Lyon", 3),
    ]
    var rows: [Row] = []

    init(count: Int) {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let categories = ["food", "travel", "rent", "Éclair", "", "books"]
        for _ in 0..<count {
            rows.append(
                Row(
                    category: categories[next(categories.count)], kind: TallyKind.allCases[next(3)],
                    cents: next(20_000) - 5_000, tip: next(3) == 0 ? nil : next(500),
                    amount: Double(next(4_000)) / 4 - 100,
                    date: Date(timeIntervalSinceReferenceDate: Double(next(1_000_000)) * 60),
                    merchant: next(5) == 0 ? nil : next(Self.merchants.count)))
        }
    }

    /// A context on a fresh container of `kind` holding these expenses.
    func savedContext(_ kind: StoreKind) throws -> ModelContext {
        let context = ModelContext(try freshContainer(kind, TallyExpense.self, TallyMerchant.self))
        try save(in: context)
        return context
    }

    func save(in context: ModelContext) throws {
        let merchants = Self.merchants.map { TallyMerchant(name: $0.name, city: $0.city, rating: $0.rating) }
        merchants.forEach(context.insert)
        for row in rows {
            context.insert(
                TallyExpense(
                    category: row.category, kind: row.kind, cents: row.cents, tip: row.tip, amount: row.amount,
                    date: row.date, merchant: row.merchant.map { merchants[$0] }))
        }
        try context.save()
    }
}

@Suite("Aggregate fetches match totals computed in Swift")
struct AggregateFetchTests {
    private func context(_ kind: StoreKind, _ data: TallyData) throws -> ModelContext {
        try data.savedContext(kind)
    }

    @Test("Count, sum, average, minimum and maximum per category", arguments: StoreKind.all)
    func perCategory(_ kind: StoreKind) throws {
        let data = TallyData(count: 300)
        let context = try context(kind, data)
        let descriptor = AggregateDescriptor(
            groupBy: \TallyExpense.category,
            aggregates: .count, .sum(\.cents), .average(\.cents), .minimum(\.date), .maximum(\.cents), .sum(\.tip),
            .count(\.tip), .average(\.tip), .sum(\.amount), .minimum(\.category))
        let groups = try context.fetch(descriptor)
        let oracle = Dictionary(grouping: data.rows, by: \.category)
        #expect(groups.map(\.key) == oracle.keys.sorted())
        for group in groups {
            let rows = oracle[group.key] ?? []
            let (count, cents, average, firstDate, maxCents, tips, tipCount, tipAverage, amount, minCategory) =
                group.value
            let tipValues = rows.compactMap(\.tip)
            #expect(count == rows.count)
            #expect(cents == rows.map(\.cents).reduce(0, +))
            #expect(average == Double(rows.map(\.cents).reduce(0, +)) / Double(rows.count))
            #expect(firstDate == rows.map(\.date).min())
            #expect(maxCents == rows.map(\.cents).max())
            #expect(tips == tipValues.reduce(0, +))
            #expect(tipCount == tipValues.count)
            #expect(tipAverage == (tipValues.isEmpty ? nil : Double(tipValues.reduce(0, +)) / Double(tipValues.count)))
            #expect(amount == rows.map(\.amount).reduce(0, +))
            #expect(minCategory == group.key)
        }
    }

    @Test("Grouping by several keys, an enum with raw values and an optional", arguments: StoreKind.all)
    func severalKeys(_ kind: StoreKind) throws {
        let data = TallyData(count: 200)
        let context = try context(kind, data)
        let groups = try context.fetch(
            AggregateDescriptor(
                predicate: #Predicate<TallyExpense> { $0.cents > 0 },
                groupBy: \TallyExpense.kind, \.tip, aggregates: .sum(\.cents)))
        struct Key: Hashable {
            var kind: String
            var tip: Int?
        }
        let rows = data.rows.filter { $0.cents > 0 }
        let oracle = Dictionary(grouping: rows) { Key(kind: $0.kind.rawValue, tip: $0.tip) }
            .mapValues { $0.map(\.cents).reduce(0, +) }
        #expect(groups.count == oracle.count)
        for group in groups {
            #expect(group.value == oracle[Key(kind: group.key.0.rawValue, tip: group.key.1)])
        }
        // Keys come in ascending order, `nil` first, enums by raw value.
        let keys = groups.map { Key(kind: $0.key.0.rawValue, tip: $0.key.1) }
        let sorted = keys.sorted { ($0.kind, $0.tip ?? -1) < ($1.kind, $1.tip ?? -1) }
        #expect(keys == sorted)
    }

    @Test("Grouping by and totalling over to-one paths", arguments: StoreKind.all)
    func toOnePaths(_ kind: StoreKind) throws {
        let data = TallyData(count: 200)
        let context = try context(kind, data)
        let city: KeyPath<TallyExpense, String?> = \.merchant?.city
        let rating: Aggregate<TallyExpense, Int> = .sum(\.merchant?.rating)
        let name: Aggregate<TallyExpense, String?> = .maximum(\.merchant?.name)
        let names: Aggregate<TallyExpense, Int> = .countDistinct(\.merchant?.name)
        let descriptor = AggregateDescriptor(groupBy: city, aggregates: .count, rating, name, names)
        let groups = try context.fetch(descriptor)
        let merchants = TallyData.merchants
        let oracle = Dictionary(grouping: data.rows) { $0.merchant.flatMap { merchants[$0].city } }
        #expect(groups.map(\.key) == [nil, "Lyon", "Paris"])
        for group in groups {
            let rows = oracle[group.key] ?? []
            let names = rows.compactMap { $0.merchant.map { merchants[$0].name } }
            #expect(group.value.0 == rows.count)
            #expect(group.value.1 == rows.compactMap { $0.merchant.map { merchants[$0].rating } }.reduce(0, +))
            #expect(group.value.2 == names.max())
            #expect(group.value.3 == Set(names).count)
        }
    }

    @Test("Counting the related models of a to-one relationship", arguments: StoreKind.all)
    func relatedCounts(_ kind: StoreKind) throws {
        let data = TallyData(count: 200)
        let context = try context(kind, data)
        let groups = try context.fetch(
            AggregateDescriptor(
                groupBy: \TallyExpense.category, aggregates: .count(\.merchant), .countDistinct(\.merchant)))
        let oracle = Dictionary(grouping: data.rows, by: \.category)
        #expect(groups.count == oracle.count)
        for group in groups {
            let merchants = oracle[group.key]?.compactMap(\.merchant) ?? []
            #expect(group.value.0 == merchants.count)
            #expect(group.value.1 == Set(merchants).count)
        }
    }

    @Test("Without group keys there is one group, also over no models", arguments: StoreKind.all)
    func noKeys(_ kind: StoreKind) throws {
        let context = try context(kind, TallyData(count: 0))
        let empty = try context.fetch(
            AggregateDescriptor<TallyExpense, (), (Int, Int, Double?, Date?, Double)>(
                aggregates: .count, .sum(\.cents), .average(\.cents), .maximum(\.date), .sum(\.amount)))
        #expect(empty.count == 1)
        let (count, sum, average, latest, amount) = try #require(empty.first).value
        #expect(count == 0 && sum == 0 && average == nil && latest == nil && amount == 0)
        let grouped = try context.fetch(AggregateDescriptor(groupBy: \TallyExpense.category, aggregates: .count))
        #expect(grouped.isEmpty)
        let one = try context.fetch(AggregateDescriptor(aggregates: .sum(\TallyExpense.cents)))
        #expect(one.map(\.value) == [0])
    }

    @Test(
        "A group whose optional values are all nil totals zero and has no average or extremes", arguments: StoreKind.all
    )
    func allNil(_ kind: StoreKind) throws {
        let context = ModelContext(try freshContainer(kind, TallyExpense.self, TallyMerchant.self))
        context.insert(TallyExpense(category: "a", kind: .food, cents: 1, tip: nil))
        context.insert(TallyExpense(category: "a", kind: .food, cents: 2, tip: nil))
        context.insert(TallyExpense(category: "b", kind: .food, cents: 3, tip: 7))
        try context.save()
        let groups = try context.fetch(
            AggregateDescriptor(
                groupBy: \TallyExpense.category,
                aggregates: .sum(\.tip), .count(\.tip), .average(\.tip), .minimum(\.tip), .count))
        #expect(groups.count == 2)
        #expect(groups[0].key == "a")
        #expect(groups[0].value.0 == 0 && groups[0].value.1 == 0 && groups[0].value.2 == nil)
        #expect(groups[0].value.3 == nil && groups[0].value.4 == 2)
        #expect(groups[1].value.0 == 7 && groups[1].value.1 == 1 && groups[1].value.2 == 7 && groups[1].value.3 == 7)
    }

    @Test(
        "An integer sum outside its type is a typed error on every store; a partial overflow is not",
        arguments: StoreKind.all)
    func overflow(_ kind: StoreKind) throws {
        let context = ModelContext(try freshContainer(kind, TallyExpense.self, TallyMerchant.self))
        for (category, cents, small) in [
            ("over", Int.max, Int8(100)), ("over", 1, 100), ("fits", Int.max, 1), ("fits", 1, 2), ("fits", -2, 3),
        ] {
            context.insert(TallyExpense(category: category, kind: .rent, cents: cents, small: small))
        }
        try context.save()
        let fits = try context.fetch(
            AggregateDescriptor(
                predicate: #Predicate<TallyExpense> { $0.category == "fits" }, aggregates: .sum(\TallyExpense.cents),
                .average(\.cents), .sum(\.small)))
        #expect(fits.first?.value.0 == Int.max - 1)
        #expect(fits.first?.value.1 == Double(Int.max - 1) / 3)
        #expect(fits.first?.value.2 == 6)
        for aggregate in [Aggregate<TallyExpense, Int>.sum(\.cents)] {
            let error = #expect(throws: StrataError.self) {
                try context.fetch(AggregateDescriptor(groupBy: \TallyExpense.category, aggregates: aggregate))
            }
            guard case .aggregateOverflow(let entity, let property, let type, let sum)? = error else {
                Issue.record("expected aggregateOverflow, got \(String(describing: error))")
                continue
            }
            #expect(entity == "TallyExpense" && property == "cents" && type == "Int")
            #expect(sum == "\(Int128(Int.max) + 1)")
        }
        let small = #expect(throws: StrataError.self) {
            try context.fetch(
                AggregateDescriptor(
                    predicate: #Predicate<TallyExpense> { $0.category == "over" }, aggregates: .sum(\TallyExpense.small)
                ))
        }
        #expect(small.map { "\($0)".contains("Int8") } == true)
        // The average of the overflowing group is still exact.
        let average = try context.fetch(
            AggregateDescriptor(
                predicate: #Predicate<TallyExpense> { $0.category == "over" }, aggregates: .average(\TallyExpense.cents)
            ))
        #expect(average.first?.value == Double(Int128(Int.max) + 1) / 2)
    }

    @Test("Sorting by an aggregate or a key, with a limit and an offset", arguments: StoreKind.all)
    func sorting(_ kind: StoreKind) throws {
        let data = TallyData(count: 300)
        let context = try context(kind, data)
        var descriptor = AggregateDescriptor(
            groupBy: \TallyExpense.category, aggregates: .sum(\.cents),
            sortBy: [AggregateSortDescriptor(.sum(\TallyExpense.cents), order: .reverse)])
        descriptor.fetchLimit = 3
        descriptor.fetchOffset = 1
        let totals = Dictionary(grouping: data.rows, by: \.category).mapValues { $0.map(\.cents).reduce(0, +) }
        let expected = totals.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.dropFirst().prefix(3)
        let groups = try context.fetch(descriptor)
        #expect(groups.map(\.key) == expected.map(\.key))
        #expect(groups.map(\.value) == expected.map(\.value))

        let byAverage = try context.fetch(
            AggregateDescriptor(
                groupBy: \TallyExpense.category, aggregates: .count,
                sortBy: [
                    AggregateSortDescriptor(.average(\TallyExpense.tip)),
                    AggregateSortDescriptor(\.category, order: .reverse),
                ]))
        let averages = Dictionary(grouping: data.rows, by: \.category).mapValues { rows in
            let tips = rows.compactMap(\.tip)
            return Double(tips.reduce(0, +)) / Double(tips.count)
        }
        #expect(byAverage.map(\.key) == averages.sorted { ($0.value, $1.key) < ($1.value, $0.key) }.map(\.key))
    }

    @Test("Dates' minimum and maximum per kind", arguments: StoreKind.all)
    func dates(_ kind: StoreKind) throws {
        let data = TallyData(count: 100)
        let context = try context(kind, data)
        let groups = try context.fetch(
            AggregateDescriptor(groupBy: \TallyExpense.kind, aggregates: .minimum(\.date), .maximum(\.date)))
        let oracle = Dictionary(grouping: data.rows, by: \.kind)
        for group in groups {
            #expect(group.value.0 == oracle[group.key]?.map(\.date).min())
            #expect(group.value.1 == oracle[group.key]?.map(\.date).max())
        }
    }

    @Test("Bad key paths are typed errors naming the model and the property", arguments: StoreKind.all)
    func badInput(_ kind: StoreKind) throws {
        let context = try context(kind, TallyData(count: 10))
        func failure(_ body: () throws -> Void) -> String? {
            do {
                try body()
                return nil
            } catch {
                guard case .invalidAggregate(let entity, let property, _)? = StrataError(error) else {
                    return "unexpected \(error)"
                }
                return "\(entity).\(property)"
            }
        }
        #expect(
            failure {
                _ = try context.fetch(AggregateDescriptor(aggregates: .countDistinct(\TallyMerchant.expenses)))
            } == "TallyMerchant.expenses")
        #expect(
            failure {
                _ = try context.fetch(AggregateDescriptor(groupBy: \TallyMerchant.expenses, aggregates: .count))
            } == "TallyMerchant.expenses")
        #expect(
            failure {
                _ = try context.fetch(AggregateDescriptor(groupBy: \TallyExpense.merchant, aggregates: .count))
            } == "TallyExpense.merchant")
        let computed = failure {
            _ = try context.fetch(AggregateDescriptor(groupBy: \TallyExpense.label, aggregates: .count))
        }
        #expect(computed?.hasPrefix("TallyExpense.") == true)
        #expect(
            failure {
                _ = try context.fetch(
                    AggregateDescriptor(
                        groupBy: \TallyExpense.category, aggregates: .count,
                        sortBy: [AggregateSortDescriptor(\TallyExpense.kind)]))
            } == "TallyExpense.kind")
    }
}
