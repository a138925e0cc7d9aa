import Foundation
import SwiftData
import Testing

@Model final class IdentifiedLedger {
    var title: String
    init(title: String) { self.title = title }
}

@Model final class IdentifiedReceipt {
    var amount: Int
    init(amount: Int) { self.amount = amount }
}

/// `ModelConfiguration` is `Identifiable` by its store's location, a `URL`, as in SwiftData: code finds a
/// container's configuration by its file, lists configurations by `id`, and still tells them apart by name.
@Suite struct ConfigurationIdentityTests {
    /// The identifiers of any identifiable values, as generic code (a SwiftUI `ForEach`) reads them.
    func identifiers<Item: Identifiable>(of items: [Item]) -> [Item.ID] { items.map(\.id) }

    @Test func aConfigurationIsIdentifiedByItsStoresLocation() {
        let url = URL(fileURLWithPath: "/tmp/ledger-\(UUID().uuidString).store")
        let configuration = ModelConfiguration("Ledger", url: url)
        let id: URL = configuration.id
        #expect(id == url)
        #expect(ModelConfiguration(isStoredInMemoryOnly: true).id == URL(fileURLWithPath: "/dev/null"))
        #expect(ModelConfiguration("Named").id == ModelConfiguration("Named").url)
        #expect(ModelConfiguration("Named").id.lastPathComponent == "Named.store")
        let other = ModelConfiguration("Ledger", url: URL(fileURLWithPath: "/tmp/other-\(UUID().uuidString).store"))
        #expect(identifiers(of: [configuration, other]) == [url, other.url])
    }

    @Test func aContainersConfigurationsAreFoundByIdAndByName() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ids-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let ledgers = ModelConfiguration(
            "Ledgers", schema: Schema([IdentifiedLedger.self]), url: directory.appendingPathComponent("ledgers.store"))
        let receipts = ModelConfiguration(
            "Receipts", schema: Schema([IdentifiedReceipt.self]),
            url: directory.appendingPathComponent("receipts.store"))
        let container = try ModelContainer(
            for: IdentifiedLedger.self, IdentifiedReceipt.self, configurations: ledgers, receipts)
        let context = ModelContext(container)
        context.insert(IdentifiedLedger(title: "2026"))
        context.insert(IdentifiedReceipt(amount: 12))
        try context.save()

        let found = try #require(container.configurations.first { $0.id == receipts.url })
        #expect(found.name == "Receipts")
        #expect(container.configurations.first { $0.name == "Ledgers" }?.id == ledgers.url)
        #expect(Set(container.configurations.map(\.id)) == [ledgers.url, receipts.url])
        #expect(try context.fetchCount(FetchDescriptor<IdentifiedReceipt>()) == 1)
    }

    @Test func aConfigurationGivenTwiceIsStillRefused() {
        let configuration = ModelConfiguration(schema: Schema([IdentifiedLedger.self]), isStoredInMemoryOnly: true)
        let again = ModelConfiguration(schema: Schema([IdentifiedLedger.self]), isStoredInMemoryOnly: true)
        #expect(configuration == again)
        #expect(throws: SwiftDataError.duplicateConfiguration) {
            _ = try ModelContainer(for: IdentifiedLedger.self, configurations: configuration, again)
        }
    }
}
