import Foundation
import Strata
import Synchronization
import Testing
@testable import StrataTestFixtures

@Suite("StrataLog: the hook an app points at its own logger", .serialized)
struct StrataLogTests {
    /// Runs `body` with every entry Strata logs meanwhile collected, then puts the previous handler back.
    private func collectingEntries(_ body: () throws -> Void) rethrows -> [StrataLog.Entry] {
        let entries = Mutex<[StrataLog.Entry]>([])
        let previous = StrataLog.handler
        StrataLog.handler = { entry in entries.withLock { $0.append(entry) } }
        defer { StrataLog.handler = previous }
        try body()
        return entries.withLock { $0 }
    }

    @Test("A migration applied to a store is logged at info, naming the store", arguments: StoreKind.all)
    func migrationIsLogged(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        try store.seed(TripBase.Trip.self) { context in
            context.insert(TripBase.Trip(name: "Lisbon", days: 4))
        }
        let entries = try collectingEntries {
            _ = try store.reopen(TripAddedDefault.Trip.self)
        }
        let migrations = entries.filter { $0.category == "migration" && $0.level == .info }
        let location = kind == .sqlite ? store.fileURL.path : store.databaseSchema
        #expect(
            migrations.contains { $0.metadata["store"]?.contains(location) == true && $0.metadata["stages"] == "1" },
            "entries: \(entries)")

        let again = try collectingEntries { _ = try store.reopen(TripAddedDefault.Trip.self) }
        #expect(
            !again.contains { $0.category == "migration" && $0.metadata["store"]?.contains(location) == true },
            "a store already on the models is not migrated again")
    }

    @Test("A fault that can't be read is logged at error once, naming the model", arguments: StoreKind.all)
    func failedFaultIsLogged(_ kind: StoreKind) throws {
        let scene = try FaultScene(kind)
        try scene.hideWriters()
        let entries = collectingEntries {
            _ = scene.writer.name
            _ = scene.writer.born
        }
        let faults = entries.filter { $0.category == "fault" && $0.metadata["entity"] == "FaultWriter" }
        #expect(faults.count == 1, "entries: \(entries)")
        #expect(faults.first?.level == .error)
        #expect(faults.first?.metadata["primaryKey"] == scene.writer.persistentBackingData.primaryKey.map(String.init))
    }

    @Test("Levels order as swift-log's, with the same names; an entry prints as one line")
    func levelsAndDescription() {
        #expect(
            StrataLog.Level.allCases.map(\.rawValue)
                == ["trace", "debug", "info", "notice", "warning", "error", "critical"])
        #expect(
            StrataLog.Level.debug < .info && StrataLog.Level.warning < .error && !(StrataLog.Level.critical < .trace))
        let entry = StrataLog.Entry(
            level: .notice, message: "the LISTEN connection dropped; reconnecting",
            metadata: ["reason": "server closed the connection", "attempt": "2"], category: "postgres",
            file: "StrataPostgres/X.swift", function: "listen(reportingTo:)", line: 7)
        #expect(
            entry.description
                == "Strata [notice] postgres: the LISTEN connection dropped; reconnecting (attempt=2, reason=server closed the connection)"
        )
    }
}
