import Foundation
import StrataTestSupport
import Testing

@testable import Strata
@testable import StrataTestFixtures

/// Rows changed behind Strata's back: a fetch checks every loaded value against its property's type, refusing a
/// row whose value doesn't fit (with the entity, property and value named) and accepting every form Strata writes.
@Suite("ModelContext: fetched rows are checked against the property types")
struct RowMaterializerTests {
    /// A column, the SQL value written into it by hand, and whether a fetch must refuse the row.
    struct Case: Sendable, CustomTestStringConvertible {
        let column: String
        let sqlValue: String
        let isRefused: Bool
        var testDescription: String { "\(column) = \(sqlValue)" }
    }

    static let cases: [Case] = [
        Case(column: "flag", sqlValue: "2", isRefused: true),
        Case(column: "flag", sqlValue: "1", isRefused: false),
        Case(column: "flag", sqlValue: "0", isRefused: false),
        Case(column: "flag", sqlValue: "-1", isRefused: true),
        Case(column: "flag", sqlValue: "-2", isRefused: true),
        Case(column: "int8", sqlValue: "300", isRefused: true),
        Case(column: "int8", sqlValue: "-128", isRefused: false),
        Case(column: "uint8", sqlValue: "-1", isRefused: true),
        Case(column: "uint64", sqlValue: "-5", isRefused: true),
        Case(column: "uint64", sqlValue: "'18446744073709551615'", isRefused: false),
        Case(column: "uint64", sqlValue: "'12'", isRefused: true),
        Case(column: "int", sqlValue: "1.5", isRefused: true),
        Case(column: "int", sqlValue: "X'01'", isRefused: true),
        Case(column: "double", sqlValue: "'abc'", isRefused: true),
        Case(column: "double", sqlValue: "'NaN'", isRefused: false),
        Case(column: "double", sqlValue: "X'00'", isRefused: true),
        Case(column: "date", sqlValue: "'yesterday'", isRefused: true),
        Case(column: "date", sqlValue: "86400", isRefused: false),
        Case(column: "text", sqlValue: "X'41'", isRefused: true),
        Case(column: "uuid", sqlValue: "X'0102'", isRefused: true),
        Case(column: "uuid", sqlValue: "'not bytes'", isRefused: true),
        Case(column: "data", sqlValue: "X''", isRefused: false),
        Case(column: "optionalText", sqlValue: "NULL", isRefused: false),
        Case(column: "optionalInt", sqlValue: "'seven'", isRefused: true),
        Case(column: "optionalUUID", sqlValue: "NULL", isRefused: false),
        Case(column: "genre", sqlValue: "'opera'", isRefused: true),
        Case(column: "priority", sqlValue: "9", isRefused: false),
        Case(column: "dimensions", sqlValue: "'{\"width\": 1}'", isRefused: true),
    ]

    @Test(arguments: cases)
    func storedValuesAreChecked(_ example: Case) throws {
        let container = try savedRow(changedBy: "UPDATE \"Everything\" SET \"\(example.column)\" = \(example.sqlValue)")

        let fresh = ModelContext(container)
        if example.isRefused {
            expectRefusal(of: example.column, in: fresh)
        } else {
            #expect(try fresh.fetch(FetchDescriptor<Everything>()).count == 1)
        }
    }

    /// The cases PostgreSQL's typed columns can hold as written (SQLite's loose typing lets the others in).
    static let postgresCases = cases.filter {
        !["'12'", "1.5", "'abc'", "'yesterday'", "'seven'"].contains($0.sqlValue) && !$0.sqlValue.hasPrefix("X'")
    }

    @Test(.needsPostgreSQL, arguments: postgresCases)
    func storedValuesAreCheckedOnPostgreSQL(_ example: Case) throws {
        let store = TestStore(.postgres)
        try store.seed(Everything.self) { $0.insert(Everything()) }
        try store.execute("UPDATE \"Everything\" SET \"\(example.column)\" = \(example.sqlValue)")
        let fresh = try store.reopen(Everything.self)
        if example.isRefused {
            expectRefusal(of: example.column, in: fresh)
        } else {
            #expect(try fresh.fetch(FetchDescriptor<Everything>()).count == 1)
        }
    }

    /// Expects fetching every `Everything` in `context` to throw `invalidStoredValue` naming `column`.
    private func expectRefusal(
        of column: String, in context: ModelContext, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            let fetched = try context.fetch(FetchDescriptor<Everything>())
            Issue.record("a bad \(column) was fetched: \(fetched.count) models", sourceLocation: sourceLocation)
        } catch let error as StrataError {
            guard case .invalidStoredValue(let entity, let property, _) = error else {
                Issue.record("expected invalidStoredValue, got \(error)", sourceLocation: sourceLocation)
                return
            }
            #expect(entity == "Everything", sourceLocation: sourceLocation)
            #expect(property == column, sourceLocation: sourceLocation)
        } catch {
            Issue.record("expected a StrataError, got \(error)", sourceLocation: sourceLocation)
        }
    }

    /// An in-memory SQLite container holding one saved `Everything`, its row then changed by hand with `sql`.
    private func savedRow(changedBy sql: String) throws -> ModelContainer {
        let container = try inMemoryContainer(Everything.self)
        let setup = ModelContext(container)
        setup.insert(Everything())
        try setup.save()
        let store = try #require(container.store as? SQLiteStore)
        try store.withConnection { try $0.execute(sql) }
        return container
    }

    /// A model of one saved `Everything`, fetched in a new context with only `loaded` loaded, and its store.
    private func fault(
        loading loaded: [PartialKeyPath<Everything>]
    ) throws -> (context: ModelContext, model: Everything, store: SQLiteStore) {
        let container = try inMemoryContainer(Everything.self)
        let setup = ModelContext(container)
        setup.insert(Everything())
        try setup.save()
        var descriptor = FetchDescriptor<Everything>()
        descriptor.propertiesToFetch = loaded
        let context = ModelContext(container)
        let model = try #require(try context.fetch(descriptor).first)
        return (context, model, try #require(container.store as? SQLiteStore))
    }

    @Test("A full fetch that fills in a fault checks the row too (regression: it was taken unchecked)")
    func faultFilledByFetchIsChecked() throws {
        let (context, model, store) = try fault(loading: [\.flag])
        try store.withConnection { try $0.execute("UPDATE \"Everything\" SET \"int\" = 'seven'") }
        #expect(model.persistentBackingData.unloadedProperties != nil)
        expectRefusal(of: "int", in: context)
        // The refused row left the fault as it was: still a fault.
        #expect(model.persistentBackingData.unloadedProperties != nil)
    }

    @Test(
        "A full fetch that fills in a fault replaces its cached decoded values (regression: they were kept)",
        arguments: StoreKind.all)
    func faultFilledByFetchDropsStaleDecodedValues(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        let container = try store.container(Everything.self)
        let setup = ModelContext(container)
        setup.insert(Everything())
        try setup.save()
        // `genre` is loaded, so its decoded value is cached from the first fetch.
        var descriptor = FetchDescriptor<Everything>()
        descriptor.propertiesToFetch = [\.flag, \.genre]
        let context = ModelContext(container)
        let model = try #require(try context.fetch(descriptor).first)
        #expect(model.persistentBackingData.decodedValues[Everything._$genreProperty.index] as? Genre == .fiction)
        try store.execute("UPDATE \"Everything\" SET \"genre\" = 'poetry'")
        let filled = try #require(try context.fetch(FetchDescriptor<Everything>()).first)
        #expect(filled === model)
        #expect(model.persistentBackingData.unloadedProperties == nil)
        #expect(model.genre == .poetry)
    }

    @Test("A hand-written NaN, integer date and maximal unsigned value read back as those values")
    func acceptedFormsDecode() throws {
        let container = try savedRow(
            changedBy:
                "UPDATE \"Everything\" SET \"double\" = 'NaN', \"date\" = 86400, \"uint64\" = '18446744073709551615'")
        let model = try #require(try ModelContext(container).fetch(FetchDescriptor<Everything>()).first)
        #expect(model.double.isNaN)
        #expect(model.date == Date(timeIntervalSinceReferenceDate: 86_400))
        #expect(model.uint64 == .max)
    }
}
