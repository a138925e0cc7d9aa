/// SwiftData's error kinds, with Apple's names: what `catch SwiftDataError.loadIssueModelContainer` and
/// `error == .historyTokenExpired` test.
///
/// Strata throws ``StrataError``, whose cases carry the detail (entity, property, store path, SQL position). Each
/// `StrataError` has the SwiftData kinds it is (``StrataError/swiftDataErrors``), so SwiftData's spellings match it:
///
/// ```swift
/// do {
///     container = try ModelContainer(for: Trip.self)
/// } catch SwiftDataError.loadIssueModelContainer {          // matches a StrataError of that kind
///     showStoreProblem()
/// }
/// if let kind = SwiftDataError(error), kind == .historyTokenExpired { refetchEverything() }
/// ```
///
/// A dynamic cast (`error as? SwiftDataError`) sees the thrown `StrataError` as what it is; take its kind with
/// ``init(_:)`` or ``StrataError/swiftDataError``.
public struct SwiftDataError: Error, Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    private let name: String

    private init(name: String) { self.name = name }

    /// The SwiftData kind of `error`: itself when it is a `SwiftDataError`, the first of a `StrataError`'s
    /// ``StrataError/swiftDataErrors``, `nil` for any other error or a `StrataError` SwiftData has no kind for.
    public init?(_ error: any Error) {
        if let kind = error as? SwiftDataError {
            self = kind
        } else if let kind = (error as? StrataError)?.swiftDataError {
            self = kind
        } else {
            return nil
        }
    }

    /// The kind's name, as Apple spells it.
    public var description: String { name }
    /// The kind's name, as Apple spells it.
    public var debugDescription: String { "SwiftDataError.\(name)" }

    // Fetch errors.
    /// A batched fetch (`fetch(_:batchSize:)`) was asked to include pending changes where it can't.
    public static let includePendingChangesWithBatchSize = SwiftDataError(name: "includePendingChangesWithBatchSize")
    /// Pending changes can't be sorted by identifier.
    public static let sortingPendingChangesWithIdentifiers = SwiftDataError(
        name: "sortingPendingChangesWithIdentifiers")
    /// A key path names no persistent property.
    public static let unsupportedKeyPath = SwiftDataError(name: "unsupportedKeyPath")
    /// A predicate can't run in the store.
    public static let unsupportedPredicate = SwiftDataError(name: "unsupportedPredicate")
    /// A sort descriptor can't run in the store.
    public static let unsupportedSortDescriptor = SwiftDataError(name: "unsupportedSortDescriptor")
    /// A history token names transactions that were deleted.
    public static let historyTokenExpired = SwiftDataError(name: "historyTokenExpired")
    /// A history fetch's descriptor can't be run.
    public static let invalidTransactionFetchRequest = SwiftDataError(name: "invalidTransactionFetchRequest")

    // Container errors.
    /// The container's store couldn't be loaded: opened, created, read as a store, or migrated.
    public static let loadIssueModelContainer = SwiftDataError(name: "loadIssueModelContainer")
    /// The store's schema is not one the models or the migration plan know.
    public static let unknownSchema = SwiftDataError(name: "unknownSchema")
    /// The data store's schema is not the current one nor any the migration plan lists.
    public static let unknownDataStoreSchema = SwiftDataError(name: "unknownDataStoreSchema")
    /// The store holds a newer schema version than the models: migrating would go backwards.
    public static let backwardMigration = SwiftDataError(name: "backwardMigration")

    // Model errors.
    /// A model class is registered twice in a schema or configuration.
    public static let duplicateRegisteredModel = SwiftDataError(name: "duplicateRegisteredModel")
    /// A model can't be saved as it is: a unique value taken, a required relationship empty, a relationship's
    /// count out of bounds, a delete denied, a value the store can't hold.
    public static let modelValidationFailure = SwiftDataError(name: "modelValidationFailure")

    // Configuration errors.
    /// A configuration's name makes a store file name longer than the file system allows.
    public static let configurationFileNameTooLong = SwiftDataError(name: "configurationFileNameTooLong")
    /// A configuration's name holds characters a file name can't.
    public static let configurationFileNameContainsInvalidCharacters = SwiftDataError(
        name: "configurationFileNameContainsInvalidCharacters")
    /// A configuration names models the container's schema doesn't have.
    public static let configurationSchemaNotFoundInContainerSchema = SwiftDataError(
        name: "configurationSchemaNotFoundInContainerSchema")
}

/// Whether `error` is of the SwiftData kind `pattern`: what `catch SwiftDataError.unsupportedPredicate` and
/// `case SwiftDataError.historyTokenExpired` test, for a `SwiftDataError` or a `StrataError` of that kind.
public func ~= (pattern: SwiftDataError, error: any Error) -> Bool {
    if let kind = error as? SwiftDataError { return kind == pattern }
    return (error as? StrataError)?.swiftDataErrors.contains(pattern) ?? false
}
