import Foundation
import Strata

/// A container's store in a PostgreSQL database, given by a libpq connection URI.
///
/// ```swift
/// let configuration = PostgresConfiguration(url: URL(string: "postgresql://app:secret@db.internal:5432/app?sslmode=require")!)
/// let container = try ModelContainer(for: Book.self, configurations: configuration)
/// ```
///
/// Every parameter of the URI (`sslmode`, `connect_timeout`, `application_name`, …) goes to libpq unchanged. The
/// models' tables live in ``schema``; two containers over the same database and schema share their data.
///
/// For a primary with standbys, name every server and ask for the one that accepts writes; libpq tries them in
/// turn, so after a failover the pool and the change listener reconnect to the promoted standby by themselves.
/// Foundation's `URL` can't hold libpq's `host1:port1,host2:port2` authority, so give hosts and ports as parameters,
/// which libpq reads the same way:
///
/// ```swift
/// let url = URL(string: "postgresql://app@/app?host=db1.internal,db2.internal&port=5432,5432"
///     + "&target_session_attrs=read-write&connect_timeout=5")!
/// ```
public struct PostgresConfiguration: DataStoreConfiguration, Sendable {
    /// The store a PostgreSQL configuration opens.
    public typealias Store = PostgresDataStore
    /// The configuration's name (`"default"` unless given).
    public let name: String
    /// The models this configuration stores; `nil` uses the container's.
    public var schema: Schema?
    /// The libpq connection URI (`postgresql://…` or `postgres://…`).
    public let url: URL
    /// The PostgreSQL schema (namespace) holding the tables; created when missing.
    public var databaseSchema: String
    /// Whether saves are allowed; `false` never writes, and the tables must exist already.
    public var allowsSave: Bool
    /// The most connections the container's pool opens at once.
    public var maximumConnections: Int
    /// How long a fetch or save waits for a connection when all ``maximumConnections`` are busy before failing with
    /// `StrataError.storeFailure` naming the pool's size: 30 seconds unless set.
    public var maximumConnectionWait: Duration = .seconds(30)
    /// Hot standbys of the primary (streaming replicas) that serve the container's fetches and counts; saves,
    /// migrations, history and live-result notifications stay on the primary ``url``. Empty (the default): every
    /// read goes to the primary.
    ///
    /// A container reads its own writes: after it saves, or learns of another instance's save from the history, a
    /// read waits for a replica to replay that far (up to ``maximumReplicaWait``) and otherwise reads from the
    /// primary. Other containers may read a replica that has not caught up with this one's latest save yet.
    public var readReplicas: [URL] = []
    /// How long a read waits for a replica to replay the container's latest save before it reads from the primary
    /// instead: 500 milliseconds unless set.
    public var maximumReplicaWait: Duration = .milliseconds(500)
    /// The longest a statement may run before the server cancels it; `nil` uses the server's setting.
    public var statementTimeout: Duration?
    /// How long the store keeps persistent history: transactions older than this many seconds are deleted (as by
    /// `ModelContext.deleteHistory`) when the store opens to write and every 64th save, as
    /// `ModelConfiguration.historyRetentionInterval` does. `nil` (the default) keeps history until the app
    /// deletes it.
    public var historyRetentionInterval: TimeInterval?
    /// The most persistent-history transactions the store keeps: older ones are deleted when the store opens to
    /// write and every 64th save (so up to 63 more may be kept in between), as
    /// `ModelConfiguration.historyRetentionLimit` does. `nil` (the default) keeps them all.
    public var historyRetentionLimit: Int?
    /// How instances learn of each other's saves for live results: `.listen` (`LISTEN`/`NOTIFY`, the default) or
    /// `.polling(interval:)` for engines without them. Every instance on a database must use the same one.
    public var changeNotification: ChangeNotification
    /// Whether opening the store takes a transaction-scoped advisory lock (`pg_advisory_xact_lock`, keyed by
    /// ``databaseSchema``) around creating or migrating it, so instances starting together do it once: `true` (the
    /// default) on PostgreSQL.
    ///
    /// Set it to `false` for engines without advisory locks (CockroachDB). Concurrent opens are then guarded by
    /// the open's own transaction: an instance opening an existing store first locks its format row in
    /// `strata_metadata` (`SELECT … FOR UPDATE`), so migrations, and the functions and history tables every open
    /// writes, run one instance at a time, and the next reads the store as the first left it; instances creating
    /// a new store together race on the catalog (the schema and the metadata table are created first), the
    /// losers' transactions fail and roll back, and they open again (up to five times), finding the store created.
    public var usesAdvisoryLocks = true

    /// Creates a configuration for the database at `url`.
    ///
    /// `schema` names the models (as `ModelConfiguration`'s does); `databaseSchema` the PostgreSQL schema that
    /// holds their tables.
    public init(
        _ name: String? = nil, schema: Schema? = nil, url: URL, databaseSchema: String = "public",
        allowsSave: Bool = true,
        maximumConnections: Int = 4, statementTimeout: Duration? = nil, changeNotification: ChangeNotification = .listen
    ) {
        self.name = name ?? "default"
        self.schema = schema
        self.url = url
        self.databaseSchema = databaseSchema
        self.allowsSave = allowsSave
        self.maximumConnections = maximumConnections
        self.statementTimeout = statementTimeout
        self.changeNotification = changeNotification
    }

    /// The URL as it may appear in errors and logs: without its password or parameters, except the servers it
    /// names (`host`, `port`) and `target_session_attrs`.
    public var redactedURL: String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "postgresql://…" }
        if components.password != nil { components.password = "***" }
        let kept = (components.queryItems ?? []).filter { ["host", "port", "target_session_attrs"].contains($0.name) }
        components.queryItems = kept.isEmpty ? nil : kept
        return components.string ?? "postgresql://…"
    }

    /// The store as errors name it: the URL without its password, and the PostgreSQL schema.
    var location: String { "\(redactedURL) (schema \(databaseSchema))" }

    public static func == (lhs: PostgresConfiguration, rhs: PostgresConfiguration) -> Bool {
        lhs.name == rhs.name && lhs.url == rhs.url && lhs.databaseSchema == rhs.databaseSchema
            && lhs.schema === rhs.schema
            && lhs.allowsSave == rhs.allowsSave && lhs.maximumConnections == rhs.maximumConnections
            && lhs.maximumConnectionWait == rhs.maximumConnectionWait
            && lhs.statementTimeout == rhs.statementTimeout && lhs.changeNotification == rhs.changeNotification
            && lhs.historyRetentionInterval == rhs.historyRetentionInterval
            && lhs.historyRetentionLimit == rhs.historyRetentionLimit
            && lhs.usesAdvisoryLocks == rhs.usesAdvisoryLocks && lhs.readReplicas == rhs.readReplicas
            && lhs.maximumReplicaWait == rhs.maximumReplicaWait
    }

    /// The history the store keeps.
    var historyRetention: HistoryRetention {
        HistoryRetention(maximumAge: historyRetentionInterval, maximumCount: historyRetentionLimit)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(url)
        hasher.combine(databaseSchema)
    }
}

extension PostgresConfiguration: DataStoreFactory {
    /// Connects and opens (creating when missing, migrating when it holds other models) the store's tables in
    /// ``databaseSchema``.
    package func makeStore(schema: Schema, migrationPlan: StoreMigrationPlan?) throws -> any PersistentStore {
        try PostgresStore(schema: schema, configuration: self, migrationPlan: migrationPlan)
    }

    /// Plans the migration opening the store would run, reading the database only (a dry run).
    package func plannedMigration(schema: Schema, migrationPlan: StoreMigrationPlan?) throws -> [MigrationStep] {
        do {
            let connection = try PostgresConnection(conninfo: url.absoluteString, settings: sessionSettings)
            return try PostgresBootstrap(
                connection: connection, schema: schema, configuration: self, migrationPlan: migrationPlan
            ).plannedMigration()
        } catch let error as PostgresError {
            throw StrataError.storeOpenFailed(path: location, reason: error.description)
        }
    }

    /// The statements each new connection runs first: the schema to find the tables in, exact float output, and
    /// the statement timeout.
    var sessionSettings: [String] {
        var settings = [
            "SET search_path TO \(PostgreSQLDialect().quote(identifier: databaseSchema))",
            "SET extra_float_digits = 3",
        ]
        if let statementTimeout {
            let milliseconds =
                statementTimeout.components.seconds * 1000 + statementTimeout.components.attoseconds
                / 1_000_000_000_000_000
            settings.append("SET statement_timeout = \(max(1, milliseconds))")
        }
        return settings
    }
}
