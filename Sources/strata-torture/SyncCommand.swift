import Foundation
import Strata
import StrataPostgres

/// `sync`: `devices` devices, each an SQLite store of its own, sync with one hub for `seconds` seconds. Each session
/// of a device is a `sync-worker` process doing random offline work and sends and fetches in random orders; the
/// coordinator kills a third of the sessions (SIGKILL, at a random moment: mid-save, mid-send, mid-fetch) and now
/// and then cuts every connection the devices hold to the server. At the end every device sends, then every device
/// fetches, and every device's rows are compared with the hub's: lost (on a device, not on the hub), duplicated
/// (an identity twice on the hub) and diverged rows must all be 0.
struct SyncCommand {
    let url: URL
    let devices: Int
    let seconds: Double
    let seed: UInt64

    /// The `application_name` of the devices' connections, which the coordinator cuts.
    static let applicationName = "strata-torture-sync"

    func run() throws -> Bool {
        let scratch = try ScratchDirectory("sync")
        defer { scratch.remove() }
        let databaseSchema = "strata_sync_torture_" + UUID().uuidString.prefix(8).lowercased()
        defer { dropSchema(databaseSchema) }
        let deviceURL = try Self.url(url, applicationName: Self.applicationName)
        var random = SplitMix(seed: seed)
        let deadline = Date().addingTimeInterval(seconds)
        var (sessions, kills, cuts, failures) = (0, 0, 0, 0)
        while Date() < deadline {
            let device = random.below(devices)
            let child = try session(
                device, scratch: scratch, schema: databaseSchema, url: deviceURL, seed: random.next())
            sessions += 1
            let killAfter = random.chance(33) ? Double(random.below(150)) / 1_000 : nil
            let cutAfter = random.chance(20) ? Double(random.below(100)) / 1_000 : nil
            let started = Date()
            var killed = false
            var cut = false
            while child.isRunning {
                let elapsed = Date().timeIntervalSince(started)
                if let killAfter, elapsed >= killAfter, !killed {
                    kill(child.processIdentifier, SIGKILL)
                    killed = true
                }
                if let cutAfter, elapsed >= cutAfter, !cut {
                    cutConnections()
                    cut = true
                    cuts += 1
                }
                usleep(5_000)
            }
            child.waitUntilExit()
            if killed, child.terminationReason == .uncaughtSignal {
                kills += 1
            } else if child.terminationStatus != 0 {
                failures += 1
                report("sync: a session of device \(device) failed (exit \(child.terminationStatus))")
            }
        }
        // Every device sends, then every device fetches: every change kept anywhere has reached every replica.
        for phase in ["send", "fetch"] {
            for device in 0..<devices {
                let child = try session(
                    device, scratch: scratch, schema: databaseSchema, url: deviceURL, seed: 0, final: phase)
                child.waitUntilExit()
                if child.terminationStatus != 0 {
                    failures += 1
                    report("sync: the final \(phase) of device \(device) failed (exit \(child.terminationStatus))")
                }
            }
        }
        let hubContainer = try ModelContainer(
            for: SyncedModels.schema, migrationPlan: nil,
            configurations: [PostgresConfiguration(url: url, databaseSchema: databaseSchema)])
        let hub = try SyncedModels.rows(of: hubContainer)
        let hubIdentities = hub.map { $0.split(separator: " ").prefix(2).joined(separator: " ") }
        let duplicated = hubIdentities.count - Set(hubIdentities).count
        var (lost, diverged) = (0, 0)
        for device in 0..<devices {
            let path = scratch.file("device-\(device).store")
            guard FileManager.default.fileExists(atPath: path) else { continue }
            let rows = try SyncedModels.rows(
                of: try ModelContainer(
                    for: SyncedModels.schema, configurations: ModelConfiguration(url: URL(fileURLWithPath: path))))
            let identities = Set(rows.map { $0.split(separator: " ").prefix(2).joined(separator: " ") })
            lost += identities.subtracting(hubIdentities).count
            diverged += Set(rows).symmetricDifference(Set(hub)).count
        }
        report(
            "sync: \(devices) devices, \(sessions) sessions in \(seconds) s, \(kills) killed, \(cuts) connection cuts, "
                + "\(failures) failed; hub rows \(hub.count)")
        report("sync: lost \(lost), duplicated \(duplicated), diverged \(diverged)")
        return lost == 0 && duplicated == 0 && diverged == 0 && failures == 0 && !hub.isEmpty
    }

    /// Starts a session of `device`.
    private func session(
        _ device: Int, scratch: ScratchDirectory, schema: String, url: URL, seed: UInt64, final: String? = nil
    ) throws -> Process {
        var arguments = [
            "sync-worker", "--store", url.absoluteString, "--schema", schema, "--device",
            scratch.file("device-\(device).store"), "--state", scratch.file("device-\(device).state"), "--seed",
            "\(seed)", "--rounds", "6",
        ]
        if let final { arguments += ["--final", final] }
        return try ChildProcess.start(arguments)
    }

    /// Ends every server connection of the devices (`pg_terminate_backend`), as a network cut or a server restart
    /// would.
    private func cutConnections() {
        guard let connection = try? PostgresConnection(conninfo: url.absoluteString) else { return }
        _ = try? connection.query(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1",
            [.text(Self.applicationName)])
    }

    /// `url` with `application_name` set, so the devices' connections can be told apart.
    private static func url(_ url: URL, applicationName: String) throws -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        components.queryItems =
            (components.queryItems ?? []) + [URLQueryItem(name: "application_name", value: applicationName)]
        return components.url ?? url
    }

    private func dropSchema(_ name: String) {
        guard let connection = try? PostgresConnection(conninfo: url.absoluteString) else { return }
        try? connection.execute("DROP SCHEMA IF EXISTS \(PostgreSQLDialect().quote(identifier: name)) CASCADE")
    }
}
