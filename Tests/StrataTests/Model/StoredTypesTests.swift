import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

@Suite("Stored types round-trip through save and reopen")
struct StoredTypesTests {
    /// Saves one `Everything` set up by `configure`, reopens the file in a new container and returns the stored model.
    private func roundTrip(_ kind: StoreKind = .sqlite, _ configure: (Everything) -> Void) throws -> Everything {
        try roundTrip(in: TestStore(kind), configure)
    }

    /// Saves one `Everything` set up by `configure` into `store`, reopens it and returns the stored model.
    private func roundTrip(in store: TestStore, _ configure: (Everything) -> Void) throws -> Everything {
        do {
            let context = ModelContext(try store.container(Everything.self))
            let model = Everything()
            configure(model)
            context.insert(model)
            try context.save()
        }
        let context = ModelContext(try store.container(Everything.self))
        let models = try context.fetch(FetchDescriptor<Everything>())
        #expect(models.count == 1)
        return try #require(models.first)
    }

    @Test("Integers at their extremes, including UInt64.max", arguments: StoreKind.all)
    func integers(_ kind: StoreKind) throws {
        let model = try roundTrip(kind) { model in
            model.flag = true
            model.int = .min
            model.int8 = .min
            model.int16 = .max
            model.int32 = .min
            model.int64 = .max
            model.uint8 = .max
            model.uint16 = .max
            model.uint32 = .max
            model.uint64 = .max
        }
        #expect(model.flag)
        #expect(model.int == .min)
        #expect(model.int8 == .min)
        #expect(model.int16 == .max)
        #expect(model.int32 == .min)
        #expect(model.int64 == .max)
        #expect(model.uint8 == .max)
        #expect(model.uint16 == .max)
        #expect(model.uint32 == .max)
        #expect(model.uint64 == .max)
    }

    @Test("Large unsigned values just above Int64.max survive", arguments: StoreKind.all)
    func uint64AboveInt64Max(_ kind: StoreKind) throws {
        let value = UInt64(Int64.max) + 1
        let model = try roundTrip(kind) { $0.uint64 = value }
        #expect(model.uint64 == value)
    }

    @Test(
        "Doubles: NaN (stored as the text 'NaN'), ±infinity and -0.0 come back as they were", arguments: StoreKind.all)
    func doublesIncludingNaNStoredAsText(_ kind: StoreKind) throws {
        let model = try roundTrip(kind) { model in
            model.double = .nan
            model.float = -.infinity
        }
        #expect(model.double.isNaN)
        #expect(model.float == -.infinity)

        let infinite = try roundTrip(kind) { model in
            model.double = .infinity
            model.float = 1.5
        }
        #expect(infinite.double == .infinity)
        #expect(infinite.float == 1.5)

    }

    @Test("-0.0 comes back equal to zero; SQLite REAL columns don't keep the sign of zero", arguments: StoreKind.all)
    func negativeZeroLosesItsSign(_ kind: StoreKind) throws {
        let negativeZero = try roundTrip(kind) { $0.double = -0.0 }
        #expect(negativeZero.double == -0.0)
        #expect(negativeZero.double.sign == .plus)
    }

    @Test("NaN is stored as the text 'NaN' in the column")
    func nanColumnIsText() throws {
        let store = TemporaryStore()
        let context = ModelContext(try store.container(Everything.self))
        let model = Everything()
        model.double = .nan
        context.insert(model)
        try context.save()
        let connection = try SQLiteConnection(location: .file(store.url.path), readOnly: true)
        #expect(try connection.query(#"SELECT "double" FROM "Everything""#, []) == [[.text("NaN")]])
    }

    @Test("Decimal keeps all of its digits", arguments: StoreKind.all)
    func decimal(_ kind: StoreKind) throws {
        let value = try #require(Decimal(string: "12345678901234567890.123"))
        let model = try roundTrip(kind) { $0.decimal = value }
        #expect(model.decimal == value)
        let negative = try #require(Decimal(string: "-0.000000000000000000001"))
        #expect(try roundTrip(kind) { $0.decimal = negative }.decimal == negative)
    }

    @Test(
        "Strings: empty, accented, CJK, emoji and NUL", arguments: StoreKind.all,
        ["", "Café", "東京の本屋", "📚👩🏽‍💻", "a\u{0}b"])
    func strings(_ kind: StoreKind, _ text: String) throws {
        guard kind == .postgres, text.contains("\0") else {
            #expect(try roundTrip(kind) { $0.text = text }.text == text)
            return
        }
        // PostgreSQL text can't hold U+0000 (docs/internals/PredicateSemantics.md): the save throws instead of cutting the text.
        #expect(throws: StrataError.self) { try roundTrip(kind) { $0.text = text } }
    }

    @Test("Dates at distantPast and distantFuture, and a fractional date", arguments: StoreKind.all)
    func dates(_ kind: StoreKind) throws {
        #expect(try roundTrip(kind) { $0.date = .distantPast }.date == .distantPast)
        #expect(try roundTrip(kind) { $0.date = .distantFuture }.date == .distantFuture)
        let fractional = Date(timeIntervalSinceReferenceDate: 123_456_789.125)
        #expect(try roundTrip(kind) { $0.date = fractional }.date == fractional)
    }

    @Test("Data (empty and with bytes), UUID and URL", arguments: StoreKind.all)
    func dataUUIDAndURL(_ kind: StoreKind) throws {
        let bytes = Data([0, 1, 2, 255, 0])
        let uuid = UUID()
        let url = try #require(URL(string: "https://example.com/books?id=42#top"))
        let model = try roundTrip(kind) { model in
            model.data = bytes
            model.uuid = uuid
            model.url = url
        }
        #expect(model.data == bytes)
        #expect(model.uuid == uuid)
        #expect(model.url == url)
        #expect(try roundTrip(kind) { $0.data = Data() }.data == Data())
    }

    @Test("Raw-value enumerations, a Codable struct, an array and a dictionary", arguments: StoreKind.all)
    func codableValues(_ kind: StoreKind) throws {
        let dimensions = Dimensions(width: 12.5, height: 20, label: "Octavo")
        let model = try roundTrip(kind) { model in
            model.genre = .poetry
            model.priority = .high
            model.dimensions = dimensions
            model.tags = ["sf", "", "classic"]
            model.counts = ["read": 3, "owned": 0]
        }
        #expect(model.genre == .poetry)
        #expect(model.priority == .high)
        #expect(model.dimensions == dimensions)
        #expect(model.tags == ["sf", "", "classic"])
        #expect(model.counts == ["read": 3, "owned": 0])
    }

    @Test("Raw-value enumerations are stored by raw value")
    func enumsStoredByRawValue() throws {
        let store = TemporaryStore()
        let context = ModelContext(try store.container(Everything.self))
        let model = Everything()
        model.genre = .poetry
        model.priority = .high
        context.insert(model)
        try context.save()
        let connection = try SQLiteConnection(location: .file(store.url.path), readOnly: true)
        #expect(
            try connection.query(#"SELECT "genre", "priority" FROM "Everything""#, []) == [
                [.text("poetry"), .integer(9)]
            ])
    }

    @Test("Optionals are stored in their own column type, nil as NULL (regression: they were JSON text)")
    func optionalsUseNativeColumns() throws {
        let store = TemporaryStore()
        let context = ModelContext(try store.container(Everything.self))
        let filled = Everything()
        filled.optionalText = "x"
        filled.optionalInt = 10
        filled.optionalDate = Date(timeIntervalSinceReferenceDate: 1.5)
        filled.optionalGenre = .poetry
        context.insert(filled)
        context.insert(Everything())
        try context.save()
        let connection = try SQLiteConnection(location: .file(store.url.path), readOnly: true)
        let rows = try connection.query(
            #"""
            SELECT "optionalText", "optionalInt", "optionalDate", "optionalGenre", typeof("optionalUUID")
            FROM "Everything" ORDER BY "Z_PK"
            """#, [])
        #expect(
            rows == [
                [.text("x"), .integer(10), .real(1.5), .text("poetry"), .text("null")],
                [.null, .null, .null, .null, .text("null")],
            ])
    }

    @Test(
        "Optional integers sort and compare as numbers (regression: JSON text sorted '10' before '9')",
        arguments: StoreKind.all)
    func optionalIntegersCompareAsNumbers(_ kind: StoreKind) throws {
        let context = ModelContext(try freshContainer(kind, Everything.self))
        for value in [9, 10, nil, 100] {
            let model = Everything()
            model.optionalInt = value
            context.insert(model)
        }
        try context.save()
        let sorted = try context.fetch(FetchDescriptor<Everything>(sortBy: [SortDescriptor(\.optionalInt)]))
        #expect(sorted.map(\.optionalInt) == [nil, 9, 10, 100])
        let large = try context.fetch(FetchDescriptor<Everything>(predicate: #Predicate { $0.optionalInt == 10 }))
        #expect(large.map(\.optionalInt) == [10])
    }

    @Test("Optionals left nil come back nil", arguments: StoreKind.all)
    func optionalsNil(_ kind: StoreKind) throws {
        let model = try roundTrip(kind) { _ in }
        #expect(model.optionalText == nil)
        #expect(model.optionalInt == nil)
        #expect(model.optionalDate == nil)
        #expect(model.optionalUUID == nil)
        #expect(model.optionalGenre == nil)
        #expect(model.optionalDimensions == nil)
    }

    @Test("Optionals set to values come back, and setting them back to nil is saved", arguments: StoreKind.all)
    func optionalsWithValues(_ kind: StoreKind) throws {
        let uuid = UUID()
        let date = Date(timeIntervalSince1970: 86_400)
        let dimensions = Dimensions(width: 1, height: 2, label: "tiny")
        let store = TestStore(kind)
        let model = try roundTrip(in: store) { model in
            model.optionalText = ""
            model.optionalInt = 0
            model.optionalDate = date
            model.optionalUUID = uuid
            model.optionalGenre = .fiction
            model.optionalDimensions = dimensions
        }
        #expect(model.optionalText == "")
        #expect(model.optionalInt == 0)
        #expect(model.optionalDate == date)
        #expect(model.optionalUUID == uuid)
        #expect(model.optionalGenre == .fiction)
        #expect(model.optionalDimensions == dimensions)

        let context = ModelContext(try store.container(Everything.self))
        let stored = try #require(try context.fetch(FetchDescriptor<Everything>()).first)
        stored.optionalText = nil
        stored.optionalDimensions = nil
        try context.save()
        let reread = try #require(
            try ModelContext(try store.container(Everything.self)).fetch(FetchDescriptor<Everything>()).first)
        #expect(reread.optionalText == nil)
        #expect(reread.optionalDimensions == nil)
        #expect(reread.optionalInt == 0)
    }
}

@Suite("Stored types: non-finite values")
struct NonFiniteValueTests {
    @Test(
        "A Codable value holding NaN and infinity round-trips (JSON writes them as strings)", arguments: StoreKind.all)
    func codableWithNonConformingFloats(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        let context = ModelContext(try store.container(Everything.self))
        let model = Everything()
        model.dimensions = Dimensions(width: .nan, height: .infinity, label: "odd")
        context.insert(model)
        try context.save()
        let reread = try #require(
            try ModelContext(try store.container(Everything.self)).fetch(FetchDescriptor<Everything>()).first)
        #expect(reread.dimensions.width.isNaN)
        #expect(reread.dimensions.height == .infinity)
    }

    @Test(
        "Decimal.nan round-trips (regression: it was saved as 'NaN' and then every fetch of the table failed)",
        arguments: StoreKind.all)
    func decimalNaN(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        let context = ModelContext(try store.container(Everything.self))
        let model = Everything()
        model.decimal = .nan
        context.insert(model)
        try context.save()
        let reread = try ModelContext(try store.container(Everything.self)).fetch(FetchDescriptor<Everything>())
        #expect(reread.count == 1)
        #expect(reread.first?.decimal.isNaN == true)
    }
}
