/// SwiftData's error type: what Strata throws where SwiftData throws one, so apps can cast it, compare it and
/// match it as they do on Apple's platforms.
///
/// ```swift
/// do {
///     container = try ModelContainer(for: Trip.self)
/// } catch SwiftDataError.loadIssueModelContainer {
///     showStoreProblem()
/// }
/// if (error as? SwiftDataError) == .historyTokenExpired { refetchEverything() }
/// ```
///
/// Two `SwiftDataError`s are equal when they are of the same kind (the static members below). An error Strata
/// throws also carries Strata's detail in ``underlyingError`` (the entity, property, store path, SQL position, the
/// stored and the current schema of a refused migration), and its ``description`` and `localizedDescription` say
/// it. Strata's failures that SwiftData has no kind for (a closed store, a merge conflict, a store failure) are
/// thrown as ``StrataError``.
public struct SwiftDataError: Error, Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    private let name: String

    /// The Strata error this one reports, with its detail; `nil` for the bare kinds (`SwiftDataError.unknownSchema`).
    ///
    /// ```swift
    /// catch let error as SwiftDataError {
    ///     if case .uniqueConstraintViolation(let entity, let properties)? = error.underlyingError { … }
    /// }
    /// ```
    public let underlyingError: StrataError?

    private init(name: String) {
        self.name = name
        underlyingError = nil
    }

    /// An error of `kind` reporting `underlyingError`.
    package init(_ kind: SwiftDataError, underlyingError: StrataError) {
        name = kind.name
        self.underlyingError = underlyingError
    }

    /// The SwiftData kind of `error`: itself when it is a `SwiftDataError`, the first of a `StrataError`'s
    /// ``StrataError/swiftDataErrors`` (carrying it), `nil` for any other error or a `StrataError` SwiftData has no
    /// kind for.
    public init?(_ error: any Error) {
        if let error = error as? SwiftDataError {
            self = error
        } else if let error = error as? StrataError, let kind = error.swiftDataError {
            self.init(kind, underlyingError: error)
        } else {
            return nil
        }
    }

    /// Whether two errors are of the same kind, whatever detail they carry.
    public static func == (lhs: SwiftDataError, rhs: SwiftDataError) -> Bool { lhs.name == rhs.name }

    /// Hashes the kind.
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    /// Whether `error` is of the kind `pattern`: what `catch SwiftDataError.unsupportedPredicate` and
    /// `case SwiftDataError.historyTokenExpired` test. A failure of several kinds matches each of them (a store
    /// version the migration plan doesn't list is `unknownDataStoreSchema`, `unknownSchema` and
    /// `loadIssueModelContainer`), as does a `StrataError` of the kind.
    public static func ~= (pattern: SwiftDataError, error: any Error) -> Bool {
        if let error = error as? SwiftDataError {
            return error == pattern || (error.underlyingError?.swiftDataErrors.contains(pattern) ?? false)
        }
        return (error as? StrataError)?.swiftDataErrors.contains(pattern) ?? false
    }

    /// The kind's name, as Apple spells it, then Strata's detail: `"loadIssueModelContainer: Cannot migrate the
    /// store at …"`.
    public var description: String {
        guard let underlyingError else { return name }
        return "\(name): \(underlyingError.description)"
    }

    /// `SwiftDataError.` and the ``description``.
    public var debugDescription: String { "SwiftDataError.\(description)" }

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
