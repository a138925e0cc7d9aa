import Foundation
import SwiftData
import Testing

@Model final class CloudNote {
    var text: String = ""
    init(text: String) { self.text = text }
}

/// The `ModelConfiguration` initializers CloudKit-ready SwiftData apps call.
@Suite struct CloudKitConfigurationTests {
    @Test func schemaAndInMemoryConfigurationStoresModels() throws {
        let schema = Schema([CloudNote.self])
        let modelConfiguration = ModelConfiguration(schema: schema, isStoredInMemoryOnly: true)
        let container = try ModelContainer(for: schema, configurations: [modelConfiguration])
        let context = ModelContext(container)
        context.insert(CloudNote(text: "hello"))
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<CloudNote>()) == 1)
        #expect(modelConfiguration.isStoredInMemoryOnly)
        #expect(modelConfiguration.cloudKitDatabase == .automatic)
    }

    @Test func configurationsReportTheirContainerIdentifiers() {
        let synced = ModelConfiguration(
            "Notes", groupContainer: .identifier("group.com.example.notes"),
            cloudKitDatabase: .private("iCloud.com.example.notes"))
        #expect(synced.cloudKitContainerIdentifier == "iCloud.com.example.notes")
        #expect(synced.groupAppContainerIdentifier == "group.com.example.notes")
        let local = ModelConfiguration(isStoredInMemoryOnly: true)
        #expect(local.cloudKitContainerIdentifier == nil)
        #expect(local.groupAppContainerIdentifier == nil)
        #expect(String(reflecting: synced).contains("Notes"))
        #expect(synced.debugDescription.contains(synced.url.path))
    }

    @Test func cloudKitDatabaseChoicesAreAcceptedAndStoreLocally() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cloud-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let schema = Schema([CloudNote.self])
        let choices: [ModelConfiguration.CloudKitDatabase] = [.none, .automatic, .private("iCloud.com.example.notes")]
        for (offset, database) in choices.enumerated() {
            let url = directory.appendingPathComponent("notes-\(offset).store")
            let configuration = ModelConfiguration(
                "Notes", schema: schema, url: url, allowsSave: true, cloudKitDatabase: database)
            let container = try ModelContainer(for: schema, configurations: configuration)
            let context = ModelContext(container)
            context.insert(CloudNote(text: "note \(offset)"))
            try context.save()
            #expect(configuration.cloudKitDatabase == database)
            #expect(FileManager.default.fileExists(atPath: url.path))
        }
    }

    @Test func namedConfigurationTakesGroupContainerAndCloudKitArguments() throws {
        let configuration = ModelConfiguration(
            "Shared", schema: Schema([CloudNote.self]), isStoredInMemoryOnly: true, allowsSave: true,
            groupContainer: .identifier("group.com.example"), cloudKitDatabase: .private("iCloud.com.example"))
        let container = try ModelContainer(for: CloudNote.self, configurations: configuration)
        #expect(container.configurations.first?.name == "Shared")
        #expect(configuration.groupContainer == .identifier("group.com.example"))
    }

    @Test func configurationForModelTypes() throws {
        let configuration = ModelConfiguration(for: CloudNote.self, isStoredInMemoryOnly: true)
        #expect(configuration.schema?.entities.map(\.name) == ["CloudNote"])
        let container = try ModelContainer(for: CloudNote.self, configurations: configuration)
        let context = ModelContext(container)
        context.insert(CloudNote(text: "typed"))
        #expect(try context.fetch(FetchDescriptor<CloudNote>()).map(\.text) == ["typed"])
    }
}
