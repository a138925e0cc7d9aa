import Foundation

/// Describes a store a `ModelContainer` opens (SwiftData's custom-store vocabulary, iOS 18): its store type, name
/// and schema. `ModelConfiguration` (an SQLite file or memory, ``DefaultStore``) and `StrataPostgres`'s
/// `PostgresConfiguration` conform, and so does the configuration of a store written against ``DataStore``:
///
/// ```swift
/// final class JSONStoreConfiguration: DataStoreConfiguration {
///     typealias Store = JSONStore
///     var name: String
///     var schema: Schema?
///     var fileURL: URL
///     // ==, hash(into:) …
/// }
/// let container = try ModelContainer(for: Trip.self, configurations: JSONStoreConfiguration(name: "Trips", fileURL: url))
/// ```
public protocol DataStoreConfiguration: Hashable {
    /// The store this configuration opens.
    associatedtype Store: DataStore where Self == Self.Store.Configuration
    /// The configuration's name.
    var name: String { get }
    /// The schema this configuration stores; `nil` uses the container's (the container sets it before opening).
    var schema: Schema? { get set }
    /// Checks the configuration before a container opens its store.
    /// - Throws: `StrataError.invalidConfiguration` saying what is wrong.
    func validate() throws
}

extension DataStoreConfiguration {
    /// Accepts the configuration: a store whose configuration has nothing to check.
    public func validate() throws {}
}
