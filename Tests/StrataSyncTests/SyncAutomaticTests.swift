import Foundation
import Strata
import StrataPostgres
import StrataSync
import StrataTestSupport
import Testing

/// Waits (up to `seconds`) until `condition` holds, checking every 50 ms; whether it did.
func eventually(within seconds: Double = 15, _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: .milliseconds(50))
    }
    return try await condition()
}

@Suite("StrataSync: status, events and syncing by itself")
struct SyncAutomaticTests {
    @Test func anUnreachableHubLeavesTheDeviceWorkingOfflineAndSaysSo() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-sync-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let container = try ModelContainer(
            for: SyncNote.self, configurations: ModelConfiguration(url: directory.appendingPathComponent("a.store")))
        // Nothing listens on port 1: the engine starts anyway, and the device keeps saving.
        let hub = PostgresConfiguration(url: try #require(URL(string: "postgresql://device:s3cret@127.0.0.1:1/app")))
        var configuration = SyncEngine.Configuration(container: container, hub: hub, stateSerialization: nil)
        configuration.automaticallySync = false
        let engine = try SyncEngine(configuration)
        let context = ModelContext(container)
        context.insert(SyncNote(title: "Offline"))
        try context.save()

        var thrown: SyncError?
        do { try await engine.sendChanges() } catch let error as SyncError { thrown = error }
        guard case .hubUnavailable = thrown else {
            Issue.record("expected the hub to be unavailable, got \(String(describing: thrown))")
            return
        }
        #expect(thrown?.description.contains("s3cret") == false, "the password must never be in an error")
        let status = engine.status
        #expect(
            await eventually {
                await MainActor.run { status.isHubReachable == false && status.pendingSaveCount == 1 }
            })
        #expect(await MainActor.run { status.lastError } == thrown)
        #expect(try SyncScenario.notes(container) == ["Offline:0:-"])
    }

    @Test func anEngineTheAppSyncsCountsEachLocalSaveAsPending() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-sync-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let container = try ModelContainer(
            for: SyncNote.self, configurations: ModelConfiguration(url: directory.appendingPathComponent("a.store")))
        let context = ModelContext(container)
        context.insert(SyncNote(title: "Before the engine"))
        try context.save()
        // The app sends and fetches by itself (and never does here): the status still follows its saves.
        let hub = PostgresConfiguration(url: try #require(URL(string: "postgresql://device@127.0.0.1:1/app")))
        var configuration = SyncEngine.Configuration(container: container, hub: hub, stateSerialization: nil)
        configuration.automaticallySync = false
        let engine = try SyncEngine(configuration)
        let status = engine.status
        #expect(await eventually { await MainActor.run { status.pendingSaveCount == 1 } })
        context.insert(SyncNote(title: "Offline"))
        try context.save()
        context.insert(SyncNote(title: "Still offline"))
        try context.save()
        #expect(await eventually { await MainActor.run { status.pendingSaveCount == 3 } })
        #expect(await MainActor.run { status.lastSendDate == nil && status.isHubReachable == nil })
    }

    @Test(.needsPostgreSQL)
    func eventsReportEachSendAndTheStateToKeep() async throws {
        let scenario = try SyncScenario()
        let phone = try scenario.device("phone")
        let engine = try scenario.engine(phone)
        let events = engine.events
        let context = ModelContext(phone)
        context.insert(SyncNote(title: "Milk"))
        try context.save()
        try await engine.sendChanges()

        var seen: [String] = []
        for await event in events {
            switch event {
            case .willSendChanges: seen.append("willSend")
            case .stateUpdate(let serialization):
                seen.append("state")
                #expect(serialization == (await engine.state.serialization))
            case .didSendChanges(let error): seen.append("didSend \(error.map { "\($0)" } ?? "ok")")
            case .willFetchChanges, .didFetchChanges: seen.append("fetch")
            }
            if seen.count == 3 { break }
        }
        #expect(seen == ["willSend", "state", "didSend ok"])
        let status = engine.status
        #expect(
            await eventually {
                await MainActor.run {
                    status.lastSendDate != nil && status.pendingSaveCount == 0 && status.isHubReachable == true
                }
            })
    }

    @Test(.needsPostgreSQL)
    func aSaveOnOneDeviceReachesAnotherWithoutAnyCall() async throws {
        let scenario = try SyncScenario()
        let phone = try scenario.device("phone")
        let laptop = try scenario.device("laptop")
        func automatic(_ container: ModelContainer) throws -> SyncEngine {
            var configuration = SyncEngine.Configuration(
                container: container, hub: scenario.hub, stateSerialization: nil)
            // Long enough that only the save here and the hub's announcement can be what syncs.
            configuration.pollingInterval = .seconds(600)
            return try SyncEngine(configuration)
        }
        let phoneSync = try automatic(phone)
        let laptopSync = try automatic(laptop)
        // Both have made their first round (and the laptop listens to the hub) before the save.
        #expect(await eventually { await MainActor.run { laptopSync.status.lastFetchDate != nil } })
        #expect(await eventually { await MainActor.run { phoneSync.status.lastFetchDate != nil } })

        let context = ModelContext(phone)
        context.insert(SyncNote(title: "Bread", count: 2))
        try context.save()
        #expect(await eventually { (try? SyncScenario.notes(laptop)) == ["Bread:2:-"] })
        #expect(try SyncScenario.notes(scenario.server()) == ["Bread:2:-"])
        await phoneSync.cancelOperations()
        await laptopSync.cancelOperations()
    }
}
