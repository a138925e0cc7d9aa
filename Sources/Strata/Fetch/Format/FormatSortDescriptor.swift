import Foundation

/// A Core Data-style sort descriptor, read like `NSSortDescriptor`: a key (or key path), a direction,
/// and optionally a comparison selector by name.
///
/// ```swift
/// let byDue = FormatSortDescriptor(key: "dueDate", ascending: true)
/// let byTitle = FormatSortDescriptor(key: "title", ascending: true, selector: "localizedStandardCompare:")
/// let newest = FormatSortDescriptor(keyPath: \Task.dueDate, ascending: false)
/// let tasks = try context.fetch(FetchDescriptor<Task>(predicate: nil, sortDescriptors: [byDue, byTitle]))
/// ```
///
/// Selectors: `compare:` (the default: numbers by value, strings by Unicode scalars), and for strings
/// `caseInsensitiveCompare:`, `localizedCompare:` and `localizedStandardCompare:` (Finder-like, numbers
/// in text by value). The key is checked against the schema when the fetch runs.
public struct FormatSortDescriptor: Sendable, Hashable, CustomStringConvertible {
    /// The property name, for descriptors made with a key; `nil` for those made with a key path.
    public let key: String?
    /// Whether smaller values come first.
    public let ascending: Bool
    /// The comparison selector's name, such as `"localizedStandardCompare:"`; `nil` for `compare:`.
    public let selector: String?
    private let keyPathBox: SortKeyPathBox?

    /// Sorts by a property named `key`.
    public init(key: String, ascending: Bool = true, selector: String? = nil) {
        self.key = key
        self.ascending = ascending
        self.selector = selector
        self.keyPathBox = nil
    }

    /// Sorts by a model's property.
    public init<Root: PersistentModel, Value>(
        keyPath: KeyPath<Root, Value>, ascending: Bool = true, selector: String? = nil
    ) {
        self.key = nil
        self.ascending = ascending
        self.selector = selector
        self.keyPathBox = SortKeyPathBox(keyPath: keyPath)
    }

    private init(key: String?, ascending: Bool, selector: String?, keyPathBox: SortKeyPathBox?) {
        self.key = key
        self.ascending = ascending
        self.selector = selector
        self.keyPathBox = keyPathBox
    }

    /// The key path given to ``init(keyPath:ascending:selector:)``.
    package var keyPath: AnyKeyPath? { keyPathBox?.keyPath }

    /// The same sort in the other direction.
    public var reversedSortDescriptor: FormatSortDescriptor {
        FormatSortDescriptor(key: key, ascending: !ascending, selector: selector, keyPathBox: keyPathBox)
    }

    /// The key, direction and selector, such as `(dueDate, ascending, compare:)`.
    public var description: String {
        let name = key ?? keyPath.map { "\($0)" } ?? "?"
        return "(\(name), \(ascending ? "ascending" : "descending"), \(selector ?? "compare:"))"
    }
}

/// Holds a sort key path so the descriptor stays `Sendable` (key paths are immutable).
private struct SortKeyPathBox: @unchecked Sendable, Hashable {
    let keyPath: AnyKeyPath
}
