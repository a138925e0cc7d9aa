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
    public let schema: Schema?
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

    public var id: String { name }

    /// Creates a configuration in SwiftData's default location — `default.store` in the user's application-support
    /// directory (`$XDG_DATA_HOME`, else `~/.local/share`, on Linux) — or in memory.
    public init(_ name: String? = nil, schema: Schema? = nil, isStoredInMemoryOnly: Bool = false, allowsSave: Bool = true) {
        self.name = name ?? "default"
        self.schema = schema
        self.isStoredInMemoryOnly = isStoredInMemoryOnly
        self.allowsSave = allowsSave
        self.url = isStoredInMemoryOnly
            ? URL(fileURLWithPath: "/dev/null")
            : Self.defaultDirectory.appendingPathComponent("\(name ?? "default").store")
    }

    /// Creates a configuration that stores models in the file at `url`.
    public init(_ name: String? = nil, schema: Schema? = nil, url: URL, allowsSave: Bool = true) {
        self.name = name ?? "default"
        self.schema = schema
        self.url = url
        self.isStoredInMemoryOnly = false
        self.allowsSave = allowsSave
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
            && lhs.allowsSave == rhs.allowsSave && lhs.schema === rhs.schema
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(url)
        hasher.combine(isStoredInMemoryOnly)
        hasher.combine(allowsSave)
    }
}
