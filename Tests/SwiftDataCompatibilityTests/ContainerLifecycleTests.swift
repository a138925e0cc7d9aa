import Foundation
import StrataPostgres
import StrataTestSupport
import SwiftData
import Testing

@Model final class PreloadedTrail {
    var name: String
    var length: Double
    init(name: String, length: Double) {
        self.name = name
        self.length = length
    }
}

/// A store of `kind` whose PostgreSQL connections carry an `application_name` of their own, so a test can count
/// them in `pg_stat_activity`.
private struct CountedStore {
    let kind: StoreKind
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("lifecycle-\(UUID().uuidString).store")
    let applicationName = "strata_lifecycle_" + UUID().uuidString.prefix(8).lowercased()
    let databaseSchema = StoreKind.newDatabaseSchema(prefix: "strata_lifecycle_")

    func container() throws -> ModelContainer {
        switch kind {
        case .sqlite:
            return try ModelContainer(for: PreloadedTrail.self, configurations: ModelConfiguration(url: url))
        case .postgres:
            let server = try #require(PostgresTestServer.url)
            var components = try #require(URLComponents(url: server, resolvingAgainstBaseURL: false))
            components.queryItems =
                (components.queryItems ?? []) + [URLQueryItem(name: "application_name", value: applicationName)]
            let configuration = PostgresConfiguration(url: try #require(components.url), databaseSchema: databaseSchema)
            return try ModelContainer(for: PreloadedTrail.self, configurations: configuration)
        }
    }

    /// The PostgreSQL sessions the store's containers have open (0 for SQLite).
    func openSessions() throws -> Int {
        guard kind == .postgres else { return 0 }
        let rows = try PostgresTestServer.rows(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = $1", databaseSchema: applicationName)
        return Int(rows.first ?? "") ?? -1
    }

    func removeFiles() {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
    }
}

/// Waits up to two seconds for `condition`.
@MainActor private func eventually(_ condition: @MainActor () throws -> Bool) async rethrows -> Bool {
    for _ in 0..<200 {
        if try condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return try condition()
}

/// A container's lifetime as apps and servers rely on it: contexts keep their container alive, releasing the last of
/// them closes its store (the SQLite file alone then holds every row, PostgreSQL's sessions end), contexts used
/// after `close()` throw instead of trapping, and `close()` / `shutdown()` leave no watcher thread or connection
/// behind.
@Suite(.serialized) struct ContainerLifecycleTests {
    @MainActor @Test func aCopyOfTheStoreFileTakenAfterTheContainersScopeHasEveryRow() throws {
        let store = CountedStore(kind: .sqlite)
        defer { store.removeFiles() }
        var kept: PreloadedTrail?
        do {
            let container = try store.container()
            let context = container.mainContext
            for number in 0..<416 { context.insert(PreloadedTrail(name: "Trail \(number)", length: Double(number))) }
            try context.save()
            kept = try context.fetch(FetchDescriptor<PreloadedTrail>(predicate: #Predicate { $0.name == "Trail 7" }))
                .first
        }
        // The "generate the preloaded database" step: only the store file is shipped.
        let shipped = FileManager.default.temporaryDirectory.appendingPathComponent(
            "shipped-\(UUID().uuidString).store")
        defer { try? FileManager.default.removeItem(at: shipped) }
        try FileManager.default.copyItem(at: store.url, to: shipped)
        let wal = (try? FileManager.default.attributesOfItem(atPath: store.url.path + "-wal")[.size] as? Int) ?? 0
        #expect(wal == 0)
        let reopened = try ModelContainer(for: PreloadedTrail.self, configurations: ModelConfiguration(url: shipped))
        #expect(try ModelContext(reopened).fetchCount(FetchDescriptor<PreloadedTrail>()) == 416)
        // A model still referenced keeps its values, with no store open behind it.
        #expect(kept?.name == "Trail 7")
        #expect(kept?.length == 7)
    }

    @MainActor @Test(arguments: StoreKind.all) func aMainContextKeepsItsContainerAlive(_ kind: StoreKind) async throws {
        let store = CountedStore(kind: kind)
        defer { store.removeFiles() }
        // The one-liner of test helpers and previews: the container itself is not kept.
        let context = try store.container().mainContext
        context.insert(PreloadedTrail(name: "Saved", length: 1))
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<PreloadedTrail>()) == 1)
        #expect(context.container.mainContext === context)
        #expect(context.container.schema.entities.map(\.name) == ["PreloadedTrail"])
        // Its autosave still runs, and another container sees what it saved.
        context.insert(PreloadedTrail(name: "Autosaved", length: 2))
        #expect(await eventually { !context.hasChanges })
        #expect(context.autosaveError == nil)
        #expect(try ModelContext(try store.container()).fetchCount(FetchDescriptor<PreloadedTrail>()) == 2)
    }

    @MainActor @Test(arguments: StoreKind.all) func releasingTheMainContextAfterItsContainerClosesTheStore(
        _ kind: StoreKind
    ) async throws {
        let store = CountedStore(kind: kind)
        defer { store.removeFiles() }
        do {
            let context = try store.container().mainContext
            for number in 0..<416 { context.insert(PreloadedTrail(name: "Trail \(number)", length: Double(number))) }
            try context.save()
            if kind == .postgres { #expect(try store.openSessions() > 0) }
        }
        // Both gone: the SQLite log is written into the file, PostgreSQL's sessions end.
        if kind == .sqlite {
            let wal = (try? FileManager.default.attributesOfItem(atPath: store.url.path + "-wal")[.size] as? Int) ?? 0
            #expect(wal == 0)
        }
        #expect(try await eventually { try store.openSessions() == 0 })
        #expect(try ModelContext(try store.container()).fetchCount(FetchDescriptor<PreloadedTrail>()) == 416)
    }

    @MainActor @Test(arguments: StoreKind.all) func aContainerReleasedOnAnotherThreadLeavesItsMainContextWorking(
        _ kind: StoreKind
    ) async throws {
        let store = CountedStore(kind: kind)
        defer { store.removeFiles() }
        let holder = ContainerHolder(try store.container())
        let context = try #require(holder.container?.mainContext)
        context.insert(PreloadedTrail(name: "Kept", length: 1))
        // The release happens on another thread, before the queued autosave runs (the main actor waits for it).
        holder.releaseOnAnotherThread()
        #expect(await eventually { !context.hasChanges })
        #expect(context.autosaveError == nil)
        #expect(try ModelContext(try store.container()).fetchCount(FetchDescriptor<PreloadedTrail>()) == 1)
    }

    @MainActor @Test(arguments: StoreKind.all) func closeStopsWatchersAndConnectionsAndLaterUseThrows(
        _ kind: StoreKind
    ) async throws {
        let store = CountedStore(kind: kind)
        defer { store.removeFiles() }
        let container = try store.container()
        let observer = try ResultsObserver<PreloadedTrail, Never>(modelContext: container.mainContext)
        let background = ModelContext(container)
        background.insert(PreloadedTrail(name: "Before close", length: 1))
        try background.save()
        // The container's own watchers (other tests' containers run theirs in the same process meanwhile).
        #expect(await eventually { container.store.runningWatcherCount > 0 })
        if kind == .postgres { #expect(try store.openSessions() > 0) }

        container.close()
        #expect(container.store.runningWatcherCount == 0)
        #expect(try await eventually { try store.openSessions() == 0 })
        #expect(throws: StrataError.self) { try background.fetch(FetchDescriptor<PreloadedTrail>()) }
        background.insert(PreloadedTrail(name: "After close", length: 2))
        #expect(throws: StrataError.self) { try background.save() }
        container.close()
        _ = observer
        #expect(
            try ModelContext(try store.container()).fetch(FetchDescriptor<PreloadedTrail>()).map(\.name) == [
                "Before close"
            ])
    }

    @Test(arguments: StoreKind.all) func shutdownWaitsOffThePoolAndLeavesNothingOpen(_ kind: StoreKind) async throws {
        let store = CountedStore(kind: kind)
        defer { store.removeFiles() }
        let container = try store.container()
        let context = ModelContext(container)
        context.insert(PreloadedTrail(name: "Served", length: 1))
        try context.save()
        await container.shutdown()
        #expect(try await eventually { try store.openSessions() == 0 })
        do {
            _ = try context.fetchCount(FetchDescriptor<PreloadedTrail>())
            Issue.record("a fetch after shutdown succeeded")
        } catch let error as StrataError {
            #expect(error.description.contains("closed"))
        }
    }
}

/// Lets a detached task release a container the test made.
private final class ContainerHolder: @unchecked Sendable {
    var container: ModelContainer?
    init(_ container: ModelContainer) { self.container = container }

    /// Lets go of the container on a thread of its own, and waits until it has.
    func releaseOnAnotherThread() {
        let released = DispatchSemaphore(value: 0)
        Thread {
            self.container = nil
            released.signal()
        }.start()
        released.wait()
    }
}
