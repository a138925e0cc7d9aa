import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

/// Store results checked against Foundation evaluating the same predicate and sort in memory.
@Suite("Fetch results match in-memory evaluation")
struct FetchOracleTests {
    private func savedModels(_ kind: StoreKind, _ configure: [(Everything) -> Void]) throws -> ModelContext {
        let context = ModelContext(try freshContainer(kind, Everything.self))
        for body in configure {
            let model = Everything()
            body(model)
            context.insert(model)
        }
        try context.save()
        return context
    }

    /// The store's answer and Foundation's, for the same descriptor.
    private func both<Value: Equatable>(
        _ context: ModelContext, _ descriptor: FetchDescriptor<Everything>, _ value: (Everything) -> Value
    ) throws -> (store: [Value], memory: [Value]) {
        var stored = descriptor
        stored.includePendingChanges = false
        let fromStore = try context.fetch(stored).map(value)
        let all = try context.fetch(FetchDescriptor<Everything>())
        let filtered = try all.filter { try descriptor.predicate?.evaluate($0) ?? true }
        return (fromStore, filtered.sorted(using: descriptor.sortBy).map(value))
    }

    @Test(
        "String sort order matches SortDescriptor's in-memory order", arguments: StoreKind.all,
        [SortOrder.forward, .reverse])
    func stringSort(_ kind: StoreKind, _ order: SortOrder) throws {
        let titles = ["banana", "Apple", "apple", "cherry", "Éclair", "item 10", "item 9", ""]
        let context = try savedModels(kind, titles.map { title in { $0.text = title } })
        let result = try both(context, FetchDescriptor(sortBy: [SortDescriptor(\.text, order: order)]), \.text)
        #expect(result.store == result.memory)
    }

    @Test("Unsigned 64-bit values sort and compare by value", arguments: StoreKind.all)
    func uint64Order(_ kind: StoreKind) throws {
        let values: [UInt64] = [1, .max, UInt64(Int64.max) + 1, 0, UInt64(Int64.max)]
        let context = try savedModels(kind, values.map { value in { $0.uint64 = value } })
        let sorted = try both(context, FetchDescriptor(sortBy: [SortDescriptor(\.uint64)]), \.uint64)
        #expect(sorted.store == sorted.memory)
        let threshold = UInt64(Int64.max)
        let large = try both(
            context,
            FetchDescriptor(
                predicate: #Predicate { $0.uint64 > threshold },
                sortBy: [SortDescriptor(\.uint64)]), \.uint64)
        #expect(large.store == large.memory)
    }

    @Test("Decimals sort and compare by value", arguments: StoreKind.all)
    func decimalOrder(_ kind: StoreKind) throws {
        let values = ["10", "9.5", "-1", "12345678901234567890.123", "0.001"].compactMap { Decimal(string: $0) }
        let context = try savedModels(kind, values.map { value in { $0.decimal = value } })
        let sorted = try both(context, FetchDescriptor(sortBy: [SortDescriptor(\.decimal, order: .reverse)]), \.decimal)
        #expect(sorted.store == sorted.memory)
        let nine = Decimal(9)
        let aboveNine = try both(
            context,
            FetchDescriptor(
                predicate: #Predicate { $0.decimal > nine },
                sortBy: [SortDescriptor(\.decimal)]), \.decimal)
        #expect(aboveNine.store == aboveNine.memory)
    }

    @Test("Dates, doubles with infinities and NaN sort as Foundation sorts them", arguments: StoreKind.all)
    func doubleAndDateOrder(_ kind: StoreKind) throws {
        let doubles: [Double] = [1.5, -.infinity, .infinity, 0, -2]
        let context = try savedModels(
            kind,
            doubles.enumerated().map { offset, value in
                {
                    $0.double = value
                    $0.date = Date(timeIntervalSince1970: Double(offset) * 1000 - 2000)
                }
            })
        let byDouble = try both(context, FetchDescriptor(sortBy: [SortDescriptor(\.double)]), \.double)
        #expect(byDouble.store == byDouble.memory)
        let byDate = try both(context, FetchDescriptor(sortBy: [SortDescriptor(\.date, order: .reverse)]), \.date)
        #expect(byDate.store == byDate.memory)
        let zero = 0.0
        let positive = try both(
            context,
            FetchDescriptor(
                predicate: #Predicate { $0.double > zero },
                sortBy: [SortDescriptor(\.double)]), \.double)
        #expect(positive.store == positive.memory)
    }
}

@Suite("Predicates on UUID, Data, URL, enums and Codable values")
struct FetchOracleValueTypeTests {
    @Test("Each predicate matches in-memory evaluation or throws unsupportedPredicate", arguments: StoreKind.all)
    func valueTypePredicates(_ kind: StoreKind) throws {
        let context = ModelContext(try freshContainer(kind, Everything.self))
        let uuids = [UUID(), UUID(), UUID()]
        for (offset, uuid) in uuids.enumerated() {
            let model = Everything()
            model.uuid = uuid
            model.optionalUUID = offset == 0 ? nil : uuid
            model.data = Data([UInt8(offset), 7])
            model.genre = offset == 1 ? .poetry : .fiction
            model.optionalGenre = offset == 2 ? nil : .poetry
            model.url = URL(fileURLWithPath: "/books/\(offset)")
            model.text = "\(offset)"
            context.insert(model)
        }
        try context.save()

        let wantedUUID = uuids[1]
        let wantedData = Data([2, 7])
        let wantedURL = URL(fileURLWithPath: "/books/0")
        let poetry = Genre.poetry
        let predicates: [(String, Predicate<Everything>)] = [
            ("uuid ==", #Predicate { $0.uuid == wantedUUID }),
            ("optional uuid == nil", #Predicate { $0.optionalUUID == nil }),
            ("data ==", #Predicate { $0.data == wantedData }),
            ("url ==", #Predicate { $0.url == wantedURL }),
            ("enum ==", #Predicate { $0.genre == poetry }),
            ("optional enum ==", #Predicate { $0.optionalGenre == poetry }),
            ("enum rawValue ==", #Predicate { $0.genre.rawValue == "poetry" }),
        ]
        let everything = try context.fetch(FetchDescriptor<Everything>(sortBy: [SortDescriptor(\.text)]))
        for (name, predicate) in predicates {
            let expected = try everything.filter { try predicate.evaluate($0) }.map(\.text)
            var descriptor = FetchDescriptor<Everything>(predicate: predicate, sortBy: [SortDescriptor(\.text)])
            descriptor.includePendingChanges = false
            do {
                #expect(try context.fetch(descriptor).map(\.text) == expected, "\(name)")
            } catch StrataError.unsupportedPredicate {
                // Allowed: the translator reports what it can't run instead of running something else.
            }
        }
    }
}
