import StrataState
import Synchronization

/// Counts how often the fixture services below are created, one log per container.
@MainActor
final class CreationLog {
    private(set) var count = 0

    func record() {
        count += 1
    }
}

/// A service whose creation is recorded in its container's ``CreationLog``.
@MainActor
final class Service {
    let label: String

    init(label: String, log: CreationLog? = nil) {
        self.label = label
        log?.record()
    }
}

/// Collects log entries so tests can assert on them.
final class LogRecorder: ApplicationLogger {
    private let storage = Mutex<[Application.LogEntry]>([])

    var entries: [Application.LogEntry] {
        storage.withLock { $0 }
    }

    func log(_ entry: Application.LogEntry) {
        storage.withLock { $0.append(entry) }
    }
}

/// Lets a test hand an override token to another task, so the last release happens there.
final class TokenBox: Sendable {
    private let token: Mutex<Application.DependencyOverride?>

    init(_ token: Application.DependencyOverride) {
        self.token = Mutex(token)
    }

    func take() -> Application.DependencyOverride? {
        token.withLock { stored in
            let taken = stored
            stored = nil
            return taken
        }
    }
}

extension Application {
    var creationLog: Dependency<CreationLog> {
        dependency(CreationLog(), id: "creationLog")
    }

    var service: Dependency<Service> {
        dependency(Service(label: "service", log: creationLog.value))
    }

    var otherService: Dependency<Service> {
        dependency(Service(label: "otherService", log: creationLog.value))
    }

    var namedService: Dependency<Service> {
        dependency(Service(label: "named", log: creationLog.value), feature: "Network", id: "shared-service")
    }

    var sameNamedService: Dependency<Service> {
        dependency(Service(label: "sameNamed", log: creationLog.value), feature: "Network", id: "shared-service")
    }

    var namedNumber: Dependency<Int> {
        dependency(42, feature: "Network", id: "shared-service")
    }
}
