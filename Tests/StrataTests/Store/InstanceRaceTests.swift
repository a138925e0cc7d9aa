import Foundation
import StrataTestSupport
import Synchronization
import Testing

@testable import Strata
@testable import StrataPostgres
@testable import StrataTestFixtures

@Suite("Saves racing from several instances")
struct InstanceRaceTests {
    @Test("Two instances change different properties of one row: neither change is lost", arguments: StoreKind.all)
    func differentPropertiesOfOneRow(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        try store.seed(Dossier.self) { $0.insert(Dossier(title: "draft", rating: 0)) }
        let first = try store.reopen(Dossier.self)
        let second = try store.reopen(Dossier.self)
        let seenByFirst = try #require(try first.fetch(FetchDescriptor<Dossier>()).first)
        let seenBySecond = try #require(try second.fetch(FetchDescriptor<Dossier>()).first)
        seenByFirst.title = "final"
        seenBySecond.rating = 5
        try first.save()
        // The second save's row version is stale; only its changed column is written.
        try second.save()
        let stored = try #require(try store.reopen(Dossier.self).fetch(FetchDescriptor<Dossier>()).first)
        #expect(stored.title == "final")
        #expect(stored.rating == 5)
    }

    @Test(
        "Two instances saving one row from two threads at once: each property keeps its writer's last value",
        arguments: StoreKind.all)
    func concurrentWritersOfOneRow(_ kind: StoreKind) async throws {
        let store = TestStore(kind)
        try store.seed(Dossier.self) { $0.insert(Dossier(title: "0", rating: 0)) }
        let configuration = try store.configuration()
        // The writers wait for each other's locks: on threads of their own, leaving the cooperative pool alone.
        let failures = await onOwnThread {
            let failures = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 2) { writer in
                do {
                    let context = ModelContext(
                        try ModelContainer(
                            for: Schema([Dossier.self]), migrationPlan: nil, configurations: [configuration]))
                    guard let dossier = try context.fetch(FetchDescriptor<Dossier>()).first else {
                        throw CocoaError(.coderValueNotFound)
                    }
                    for round in 1...25 {
                        if writer == 0 { dossier.title = "\(round)" } else { dossier.rating = round }
                        try context.save()
                    }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
            return failures.withLock { $0 }
        }
        #expect(failures == [])
        let stored = try #require(try store.reopen(Dossier.self).fetch(FetchDescriptor<Dossier>()).first)
        #expect(stored.title == "25")
        #expect(stored.rating == 25)
    }

    @Test("A save PostgreSQL picks as a deadlock's victim is run again and succeeds", .needsPostgreSQL)
    func deadlockVictimIsRetried() async throws {
        let url = try PostgresTestServer.requiredURL()
        let store = TestStore(.postgres)
        try store.seed(Dossier.self) { context in
            context.insert(Dossier(title: "a", rating: 0))
            context.insert(Dossier(title: "b", rating: 0))
        }
        // The save's session finds the deadlock (after a second of waiting); the other session waits far longer.
        var components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
        components.queryItems =
            (components.queryItems ?? []) + [URLQueryItem(name: "options", value: "-c deadlock_timeout=1000")]
        let configuration = PostgresConfiguration(
            url: try #require(components.url), databaseSchema: store.databaseSchema)
        let container = try ModelContainer(
            for: Schema([Dossier.self]), migrationPlan: nil, configurations: [configuration])

        // Holds the second row, which the save updates after the first; this session waits 20 s before it looks for
        // deadlocks, so the save's session is the one that finds it.
        let other = try store.sessionLocking(dossier: "b")
        let save = BackgroundSave(container) { context in
            for dossier in try context.fetch(FetchDescriptor<Dossier>()) { dossier.title += "!" }
        }
        // Once the save waits, closes the cycle: this waits for the save's first row while the save waits for the
        // second, until the save's session finds the deadlock. On a thread of its own, so the cycle closes within the
        // save's second of waiting even when the cooperative pool is busy (the test awaits it: one thread at a time
        // uses the session).
        nonisolated(unsafe) let session = other
        let blocked = try await onOwnThread {
            let blocked = try session.pollForBackendBlockedByThisSession()
            try session.execute("UPDATE \"Dossier\" SET \"rating\" = 7 WHERE \"title\" = 'a'")
            try session.execute("COMMIT")
            return blocked
        }
        #expect(blocked != nil)
        #expect(await save.wait() == nil)
        let stored = try store.reopen(Dossier.self).fetch(FetchDescriptor<Dossier>(sortBy: [SortDescriptor(\.title)]))
        #expect(stored.map(\.title) == ["a!", "b!"])
        #expect(stored.map(\.rating) == [7, 7])
    }
}

@Suite("Creating a store from several instances at once")
struct StoreCreationRaceTests {
    /// Opens `instances` containers at the same moment, each on a thread of its own, on a store that doesn't exist
    /// yet, and saves one row from each: returns each open's store identifier, or its error.
    private static func race(_ store: TestStore, instances: Int) async throws -> [Result<String, any Error>] {
        let configuration = try store.configuration()
        return await onOwnThread {
            let outcomes = Mutex<[Result<String, any Error>]>([])
            let ready = DispatchGroup(), done = DispatchGroup()
            let gate = DispatchSemaphore(value: 0)
            for instance in 0..<instances {
                ready.enter()
                done.enter()
                Thread {
                    ready.leave()
                    gate.wait()
                    let outcome = Result<String, any Error> {
                        let container = try ModelContainer(
                            for: Schema([Dossier.self]), migrationPlan: nil, configurations: [configuration])
                        let context = ModelContext(container)
                        context.insert(Dossier(title: "instance \(instance)", rating: instance))
                        try context.save()
                        return container.store.identifier
                    }
                    outcomes.withLock { $0.append(outcome) }
                    done.leave()
                }.start()
            }
            ready.wait()
            for _ in 0..<instances { gate.signal() }
            done.wait()
            return outcomes.withLock { $0 }
        }
    }

    @Test(
        "Six containers of one process open a store that doesn't exist at the same moment: one store, every open succeeds",
        arguments: StoreKind.all)
    func containersOfOneProcess(_ kind: StoreKind) async throws {
        for _ in 0..<15 {
            let store = TestStore(kind)
            let outcomes = try await Self.race(store, instances: 6)
            let identifiers = outcomes.compactMap { try? $0.get() }
            let errors = outcomes.compactMap { outcome -> String? in
                if case .failure(let error) = outcome { "\(error)" } else { nil }
            }
            #expect(errors == [])
            #expect(Set(identifiers).count == 1)
            #expect(try store.reopen(Dossier.self).fetchCount(FetchDescriptor<Dossier>()) == 6)
        }
    }
}
