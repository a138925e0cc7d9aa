import Foundation

/// Where and how a container stores its models: a file, or memory only; writable or read-only.
///
/// ```swift
/// let inMemory = ModelConfiguration(isStoredInMemoryOnly: true)
/// let file = ModelConfiguration(url: URL(filePath: "/var/lib/app/books.store"))
/// let readOnly = ModelConfiguration(url: url, allowsSave: false)
/// ```
public struct ModelConfiguration: Sendable, Hashable, Identifiable {
    /// The configuration's name (`"default"` unless given).
    public let name: String
    /// The schema this configuration stores; `nil` uses the container's.
    public var schema: Schema?
    /// The store file's location. For in-memory configurations it is `/dev/null`, as in SwiftData.
    public let url: URL
    /// Whether the store lives in memory only, gone when the container is released.
    public let isStoredInMemoryOnly: Bool
    /// Whether saves are allowed; `false` opens the store read-only.
    public let allowsSave: Bool
    /// Whether a copy of the store file, `<file>.backup-<version>`, is written before the store is migrated
    /// (`true` unless set to `false`). The copy is a complete store the previous models open.
    ///
    /// ```swift
    /// var configuration = ModelConfiguration(url: url)
    /// configuration.backsUpStoreBeforeMigration = false
    /// ```
    public var backsUpStoreBeforeMigration = true
    /// Whether opening the store reads every page of its file to check it (SQLite's `quick_check`); `false` by
    /// default. Otherwise an open checks the file's header and schema, a full check runs only after the app
    /// stopped without closing the store (a crash, a kill, a power cut), and damage elsewhere fails the read
    /// that reaches it with a `StrataError`. A full check costs time in proportion to the file's size (about
    /// 4 s for 1 GB).
    ///
    /// ```swift
    /// var configuration = ModelConfiguration(url: url)
    /// configuration.checksStoreIntegrityOnOpen = true
    /// ```
    public var checksStoreIntegrityOnOpen = false
    /// How long the store keeps persistent history: transactions older than this many seconds are deleted (as by
    /// `ModelContext.deleteHistory`) when the store opens and every 64th save. `nil` (the default) keeps history
    /// until the app deletes it.
    ///
    /// ```swift
    /// var configuration = ModelConfiguration(url: url)
    /// configuration.historyRetentionInterval = 7 * 24 * 60 * 60   // a week
    /// ```
    public var historyRetentionInterval: TimeInterval?
    /// The most persistent-history transactions the store keeps: older ones are deleted when the store opens and
    /// every 64th save (so up to 63 more may be kept in between). `nil` (the default) keeps them all.
    public var historyRetentionLimit: Int?

    /// The configuration's identity, as in SwiftData: the location of its store, ``url`` (`/dev/null` for every
    /// in-memory configuration). Two configurations naming one file identify the same store; ``name`` tells
    /// configurations apart by the name given them.
    ///
    /// ```swift
    /// let configuration = try #require(container.configurations.first { $0.id == storeURL })
    /// ```
    public var id: URL { url }

    /// Which CloudKit database the configuration would sync with; Strata stores locally whatever it is.
    public let cloudKitDatabase: CloudKitDatabase
    /// Which app group container would hold the store; on Linux the default directory holds it.
    public let groupContainer: GroupContainer

    /// Creates a configuration in SwiftData's default location — `default.store` in the user's application-support
    /// directory (`$XDG_DATA_HOME`, else `~/.local/share`, on Linux) — or in memory.
    ///
    /// ```swift
    /// let configuration = ModelConfiguration(schema: schema, isStoredInMemoryOnly: false,
    ///                                        cloudKitDatabase: .private("iCloud.com.example.app"))
    /// ```
    ///
    /// `groupContainer` and `cloudKitDatabase` are accepted as SwiftData accepts them; Strata never syncs (see
    /// ``CloudKitDatabase``).
    public init(
        _ name: String? = nil, schema: Schema? = nil, isStoredInMemoryOnly: Bool = false, allowsSave: Bool = true,
        groupContainer: GroupContainer = .automatic, cloudKitDatabase: CloudKitDatabase = .automatic
    ) {
        self.name = name ?? "default"
        self.schema = schema
        self.isStoredInMemoryOnly = isStoredInMemoryOnly
        self.allowsSave = allowsSave
        self.groupContainer = groupContainer
        self.cloudKitDatabase = cloudKitDatabase
        self.url =
            isStoredInMemoryOnly
            ? URL(fileURLWithPath: "/dev/null")
            : Self.defaultDirectory.appendingPathComponent("\(name ?? "default").store")
        Self.noteCloudKitUnavailable(cloudKitDatabase)
    }

    /// Creates a configuration that stores models in the file at `url`.
    ///
    /// `cloudKitDatabase` is accepted as SwiftData accepts it; Strata never syncs (see ``CloudKitDatabase``).
    public init(
        _ name: String? = nil, schema: Schema? = nil, url: URL, allowsSave: Bool = true,
        cloudKitDatabase: CloudKitDatabase = .automatic
    ) {
        self.name = name ?? "default"
        self.schema = schema
        self.url = url
        self.isStoredInMemoryOnly = false
        self.allowsSave = allowsSave
        self.groupContainer = .automatic
        self.cloudKitDatabase = cloudKitDatabase
        Self.noteCloudKitUnavailable(cloudKitDatabase)
    }

    /// Creates a configuration in the default location, or in memory.
    ///
    /// ```swift
    /// let container = try ModelContainer(for: Book.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
    /// ```
    public init(isStoredInMemoryOnly: Bool = false) {
        self.init(nil, schema: nil, isStoredInMemoryOnly: isStoredInMemoryOnly, allowsSave: true)
    }

    /// Creates a configuration whose schema is the given model classes (and the models they reach), in the
    /// default location or in memory.
    ///
    /// ```swift
    /// let configuration = ModelConfiguration(for: Trip.self, BucketListItem.self, isStoredInMemoryOnly: true)
    /// ```
    public init(for forTypes: any PersistentModel.Type..., isStoredInMemoryOnly: Bool = false) {
        self.init(schema: Schema(forTypes), isStoredInMemoryOnly: isStoredInMemoryOnly)
    }

    /// SwiftData's default store directory: the user's application-support directory.
    static var defaultDirectory: URL {
        let environment = ProcessInfo.processInfo.environment
        if let dataHome = environment["XDG_DATA_HOME"], dataHome.hasPrefix("/") {
            return URL(fileURLWithPath: dataHome, isDirectory: true)
        }
        if let directory = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first {
            return directory
        }
        return URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent(".local/share", isDirectory: true)
    }

    public static func == (lhs: ModelConfiguration, rhs: ModelConfiguration) -> Bool {
        lhs.name == rhs.name && lhs.url == rhs.url && lhs.isStoredInMemoryOnly == rhs.isStoredInMemoryOnly
            && lhs.allowsSave == rhs.allowsSave && lhs.schema == rhs.schema
            && lhs.cloudKitDatabase == rhs.cloudKitDatabase && lhs.groupContainer == rhs.groupContainer
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(url)
        hasher.combine(isStoredInMemoryOnly)
        hasher.combine(allowsSave)
    }
}

extension ModelConfiguration: CustomDebugStringConvertible {
    /// The configuration as a debugger shows it: its name, where the store is, and how it is opened.
    public var debugDescription: String {
        "ModelConfiguration(name: \(name), url: \(url.path), isStoredInMemoryOnly: \(isStoredInMemoryOnly), "
            + "allowsSave: \(allowsSave))"
    }
}
