import Foundation
import SwiftData
import Testing

// A parcel's label, a composite attribute, through three shapes of its struct.

enum ParcelSchemaV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Parcel.self] }

    struct Label: Codable {
        var recipient: String
        var weight: Int
    }

    @Model final class Parcel {
        var code: String
        var label: Label
        init(code: String, label: Label) { self.code = code; self.label = label }
    }
}

enum ParcelSchemaV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Parcel.self] }

    /// Adds an optional field.
    struct Label: Codable {
        var recipient: String
        var weight: Int
        var note: String?
    }

    @Model final class Parcel {
        var code: String
        var label: Label
        init(code: String, label: Label) { self.code = code; self.label = label }
    }
}

enum ParcelSchemaV3: VersionedSchema {
    static let versionIdentifier = Schema.Version(3, 0, 0)
    static var models: [any PersistentModel.Type] { [Parcel.self] }

    /// Adds a field without a value for the labels already stored.
    struct Label: Codable {
        var recipient: String
        var weight: Int
        var country: String
    }

    @Model final class Parcel {
        var code: String
        var label: Label
        init(code: String, label: Label) { self.code = code; self.label = label }
    }
}

/// How a composite attribute's stored values meet a new shape of its struct.
@Suite struct CompositeMigrationTests {
    private func storeWithVersion1(_ kind: StoreKind) throws -> CompatibilityStore {
        let store = CompatibilityStore(kind)
        let context = ModelContext(try store.container(Schema(versionedSchema: ParcelSchemaV1.self)))
        context.insert(ParcelSchemaV1.Parcel(code: "A1", label: .init(recipient: "Ana", weight: 3)))
        context.insert(ParcelSchemaV1.Parcel(code: "B2", label: .init(recipient: "Bruno", weight: 12)))
        try context.save()
        return store
    }

    @Test(arguments: StoreKind.all) func anAddedOptionalFieldIsLightweight(_ kind: StoreKind) throws {
        let store = try storeWithVersion1(kind)
        let context = ModelContext(try store.container(Schema(versionedSchema: ParcelSchemaV2.self)))
        let all = try context.fetch(FetchDescriptor<ParcelSchemaV2.Parcel>(sortBy: [SortDescriptor(\.code)]))
        #expect(all.map(\.label.recipient) == ["Ana", "Bruno"])
        #expect(all.map(\.label.note) == [nil, nil])
        #expect(
            try context.fetchCount(
                FetchDescriptor<ParcelSchemaV2.Parcel>(predicate: #Predicate { $0.label.note == nil })) == 2)
        all[1].label.note = "fragile"
        try context.save()
        let fragile = try ModelContext(try store.container(Schema(versionedSchema: ParcelSchemaV2.self)))
            .fetch(
                FetchDescriptor<ParcelSchemaV2.Parcel>(
                    predicate: #Predicate { $0.label.note == "fragile" && $0.label.weight > 10 }))
        #expect(fragile.map(\.code) == ["B2"])
    }

    @Test(arguments: StoreKind.all) func rowsWithoutANewRequiredFieldAreNeverLoadedByAFilterAndRefusedWhenRead(
        _ kind: StoreKind
    ) throws {
        let store = try storeWithVersion1(kind)
        let context = ModelContext(try store.container(Schema(versionedSchema: ParcelSchemaV3.self)))
        context.insert(ParcelSchemaV3.Parcel(code: "C3", label: .init(recipient: "Carla", weight: 1, country: "PT")))
        try context.save()
        // The store selects the row: the two labels that can't be decoded any more are never read.
        let fresh = ModelContext(try store.container(Schema(versionedSchema: ParcelSchemaV3.self)))
        let portuguese = try fresh.fetch(
            FetchDescriptor<ParcelSchemaV3.Parcel>(predicate: #Predicate { $0.label.country == "PT" }))
        #expect(portuguese.map(\.code) == ["C3"])
        #expect(
            try fresh.fetchCount(
                FetchDescriptor<ParcelSchemaV3.Parcel>(predicate: #Predicate { $0.label.country != "PT" })) == 2)
        #expect {
            try fresh.fetch(FetchDescriptor<ParcelSchemaV3.Parcel>())
        } throws: { error in
            guard case StrataError.invalidStoredValue(let entity, let property, _) = error else { return false }
            return entity == "Parcel" && property == "label"
        }
    }
}
