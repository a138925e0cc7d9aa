import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

@Suite("Aggregate fetches written as Core Data writes them match totals computed in Swift")
struct FormatAggregateTests {
    @Test("@count, @sum, @avg, @min and @max per category, by name", arguments: StoreKind.all)
    func perCategory(_ kind: StoreKind) throws {
        let data = TallyData(count: 300)
        let context = try data.savedContext(kind)
        let descriptor = FormatAggregateDescriptor<TallyExpense>(
            propertiesToFetch: [
                "@count", "category", "@sum.cents", "@avg.cents", "@min.date", "@max.cents", "@sum.tip", "count:(tip)",
                "@avg.tip", "sum:(amount)", "average:(amount)", "max:(amount)",
            ],
            propertiesToGroupBy: ["category"])
        let rows = try context.fetch(descriptor)
        let oracle = Dictionary(grouping: data.rows, by: \.category)
        #expect(rows.map { $0["category"]?.stringValue ?? "?" } == oracle.keys.sorted())
        for row in rows {
            let group = oracle[row["category"]?.stringValue ?? ""] ?? []
            let cents = group.map(\.cents).reduce(0, +)
            let tips = group.compactMap(\.tip)
            let amount = group.map(\.amount).reduce(0, +)
            #expect(row.keys == descriptor.propertiesToFetch)
            #expect(row["@count"] == .int(group.count))
            #expect(row["@sum.cents"] == .int(cents))
            #expect(row["@avg.cents"] == .double(Double(cents) / Double(group.count)))
            #expect(row["@min.date"] == group.map(\.date).min().map { .date($0) })
            #expect(row["@max.cents"] == group.map(\.cents).max().map { .int($0) })
            #expect(row["@sum.tip"] == .int(tips.reduce(0, +)))
            #expect(row["count:(tip)"] == .int(tips.count))
            #expect(row["@avg.tip"] == (tips.isEmpty ? .null : .double(Double(tips.reduce(0, +)) / Double(tips.count))))
            #expect(row["sum:(amount)"] == .double(amount))
            #expect(row["average:(amount)"] == .double(amount / Double(group.count)))
            #expect(row["max:(amount)"] == group.map(\.amount).max().map { .double($0) })
        }
    }

    @Test("A format predicate, keys through to-one paths and enums, having, sort and limit", arguments: StoreKind.all)
    func filteredGroupedSorted(_ kind: StoreKind) throws {
        let data = TallyData(count: 300)
        let context = try data.savedContext(kind)
        var descriptor = FormatAggregateDescriptor<TallyExpense>(
            predicate: FormatPredicate(format: "cents > %d", 0),
            propertiesToFetch: ["merchant.city", "kind", "@sum.cents", "@count"],
            propertiesToGroupBy: ["merchant.city", "kind"],
            sortDescriptors: [FormatSortDescriptor(key: "@sum.cents", ascending: false)])
        descriptor.havingPredicate = FormatPredicate(format: "@count >= 5 AND NOT @sum.cents < %d", 20_000)
        descriptor.fetchLimit = 4
        struct Key: Hashable {
            var city: String?
            var kind: String
        }
        let merchants = TallyData.merchants
        let kept = data.rows.filter { $0.cents > 0 }
        let grouped = Dictionary(grouping: kept) { (row: TallyData.Row) -> Key in
            Key(city: row.merchant.flatMap { merchants[$0].city }, kind: row.kind.rawValue)
        }
        var totals: [(key: Key, cents: Int, count: Int)] = []
        for (key, rows) in grouped {
            let cents = rows.map(\.cents).reduce(0, +)
            if rows.count >= 5 && !(cents < 20_000) { totals.append((key, cents, rows.count)) }
        }
        let expected = totals.sorted { $0.cents > $1.cents }.prefix(4)
        #expect(expected.count == 4)
        let rows = try context.fetch(descriptor)
        #expect(
            rows.map { "\($0["merchant.city"] ?? .null) \($0["kind"] ?? .null) \($0["@sum.cents"] ?? .null)" }
                == expected.map { "\($0.key.city ?? "nil") \($0.key.kind) \($0.cents)" })
        #expect(rows.count == expected.count)
    }

    @Test("Without propertiesToGroupBy, one row over every model, also over none", arguments: StoreKind.all)
    func oneRow(_ kind: StoreKind) throws {
        let data = TallyData(count: 50)
        let context = try data.savedContext(kind)
        let all = try context.fetch(
            FormatAggregateDescriptor<TallyExpense>(propertiesToFetch: ["@sum.cents", "@count"]))
        #expect(
            all.map { [$0["@sum.cents"], $0["@count"]] } == [[.int(data.rows.map(\.cents).reduce(0, +)), .int(50)]])
        let none = try context.fetch(
            FormatAggregateDescriptor<TallyExpense>(
                predicate: FormatPredicate(value: false), propertiesToFetch: ["@sum.cents", "@avg.amount", "@max.date"])
        )
        #expect(none.map(\.values) == [[.int(0), .null, .null]])
    }

    @Test("Names that can't be totalled throw errors naming the model and property", arguments: StoreKind.all)
    func badNames(_ kind: StoreKind) throws {
        let context = try TallyData(count: 5).savedContext(kind)
        func failure(_ fetch: [String], groupBy: [String] = [], sort: String? = nil, having: String? = nil) -> String {
            var descriptor = FormatAggregateDescriptor<TallyExpense>(
                propertiesToFetch: fetch, propertiesToGroupBy: groupBy)
            descriptor.sortDescriptors = sort.map { [FormatSortDescriptor(key: $0)] } ?? []
            descriptor.havingPredicate = having.map { FormatPredicate(format: $0) }
            do {
                _ = try context.fetch(descriptor)
                return "no error"
            } catch {
                switch StrataError(error) {
                case .invalidAggregate(let entity, let property, _)?: return "\(entity).\(property)"
                case .unsupportedPredicate?: return "unsupported"
                default: return "unexpected \(error)"
                }
            }
        }
        #expect(failure(["@sum.nope"]) == "TallyExpense.nope")
        #expect(failure(["@sum.category"]) == "TallyExpense.category")
        #expect(failure(["@avg.date"]) == "TallyExpense.date")
        #expect(failure(["@sum.kind"]) == "TallyExpense.kind")
        #expect(failure(["@median.cents"]) == "TallyExpense.cents")
        #expect(failure(["median:(cents)"]) == "TallyExpense.cents")
        #expect(failure(["@sum"]) == "TallyExpense.@sum")
        #expect(failure(["@count"], groupBy: ["merchant.expenses"]) == "TallyExpense.merchant.expenses")
        #expect(failure(["@sum.merchant.expenses.cents"]) == "TallyExpense.merchant.expenses.cents")
        #expect(failure(["@max.merchant"]) == "TallyExpense.merchant")
        #expect(failure(["@count"], groupBy: ["label"]) == "TallyExpense.label")
        #expect(failure(["category", "@count"]) == "TallyExpense.category")
        #expect(failure(["@count"], groupBy: ["category"], sort: "cents") == "TallyExpense.cents")
        #expect(failure(["@count"], having: "@max.category > 'a'") == "TallyExpense.category")
        #expect(failure(["@count"], having: "cents > 5") == "unsupported")
        let malformed = FormatAggregateDescriptor<TallyExpense>(propertiesToFetch: ["@count"])
        var broken = malformed
        broken.havingPredicate = FormatPredicate(format: "@count >")
        #expect(throws: PredicateFormatError.self) { try context.fetch(broken) }
    }

    @Test("The same rows on SQLite and PostgreSQL", .needsPostgreSQL)
    func bothStoresAgree() throws {
        let data = TallyData(count: 200)
        var descriptor = FormatAggregateDescriptor<TallyExpense>(
            propertiesToFetch: ["category", "@sum.amount", "@avg.cents", "@min.tip", "@max.merchant.name"],
            propertiesToGroupBy: ["category"],
            sortDescriptors: [FormatSortDescriptor(key: "@avg.cents")])
        descriptor.havingPredicate = FormatPredicate(format: "@count > 10")
        let answers = try StoreKind.all.map { try data.savedContext($0).fetch(descriptor) }
        #expect(answers.dropFirst().allSatisfy { $0 == answers[0] })
    }
}
