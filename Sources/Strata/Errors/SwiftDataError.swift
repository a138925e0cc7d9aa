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
    /// A batched fetch was asked to include the context's pending changes where it can't. Strata never throws it:
    /// `fetch(_:batchSize:)` and `enumerate` merge pending changes.
    public static let includePendingChangesWithBatchSize = SwiftDataError(name: "includePendingChangesWithBatchSize")
    /// A fetch of identifiers sorted while including pending changes. Strata never throws it: it sorts them.
    public static let sortingPendingChangesWithIdentifiers = SwiftDataError(
        name: "sortingPendingChangesWithIdentifiers")
    /// A key path names no persistent property. Strata reports such a key path where it is used: in a predicate as
    /// ``unsupportedPredicate``, in a sort as ``unsupportedSortDescriptor``.
    public static let unsupportedKeyPath = SwiftDataError(name: "unsupportedKeyPath")
    /// A predicate can't run in the store (`StrataError.unsupportedPredicate` says which part and why): thrown by
    /// fetches, counts and `delete(model:where:)`.
    public static let unsupportedPredicate = SwiftDataError(name: "unsupportedPredicate")
    /// A sort descriptor can't run in the store (`StrataError.unsupportedSortDescriptor`): thrown by fetches.
    public static let unsupportedSortDescriptor = SwiftDataError(name: "unsupportedSortDescriptor")

    // Configuration errors.
    /// A configuration's name holds characters a file name can't (`/`, NUL): thrown by `validate()` and the
    /// container's initializers.
    public static let configurationFileNameContainsInvalidCharacters = SwiftDataError(
        name: "configurationFileNameContainsInvalidCharacters")
    /// A configuration's store file name, with SQLite's `-wal` suffix, is longer than the file system allows:
    /// thrown by `validate()` and the container's initializers.
    public static let configurationFileNameTooLong = SwiftDataError(name: "configurationFileNameTooLong")
    /// A configuration's schema holds models the container's schema doesn't, or the container's schema holds a
    /// model no configuration takes: thrown by the container's initializers.
    public static let configurationSchemaNotFoundInContainerSchema = SwiftDataError(
        name: "configurationSchemaNotFoundInContainerSchema")
    /// A container was given the same configuration twice (equal name, store and schema): thrown by the
    /// container's initializers.
    public static let duplicateConfiguration = SwiftDataError(name: "duplicateConfiguration")

    // Container errors.
    /// The container's store couldn't be loaded: opened, created, read as a store, or migrated; or configurations
    /// can't share the models. The `underlyingError` says which (`StrataError.storeOpenFailed`, `.notAStrataStore`,
    /// `.schemaMismatch`, `.migrationRefused`, `.invalidSchema`, `.invalidConfiguration`).
    public static let loadIssueModelContainer = SwiftDataError(name: "loadIssueModelContainer")

    // Context errors.
    /// A model can't be saved as it is: a unique value taken (under the `.error` merge policy, or an update), a
    /// required relationship empty, a relationship's count out of bounds, a delete denied, a value the store can't
    /// hold. Thrown by `save()`, with the context's changes kept.
    public static let modelValidationFailure = SwiftDataError(name: "modelValidationFailure")
    /// An operation needs a model's context and the model has none. Strata never throws it (a model without a
    /// context reads and writes its own values); apps throw it themselves, as on Apple's platforms.
    public static let missingModelContext = SwiftDataError(name: "missingModelContext")

    // Migration errors.
    /// The store holds a newer schema version than any the migration plan lists: migrating would go backwards.
    /// Thrown by the container's initializers; `catch SwiftDataError.unknownDataStoreSchema` and
    /// `.loadIssueModelContainer` match it too.
    public static let backwardMigration = SwiftDataError(name: "backwardMigration")
    /// The store's schema is not one the models or the migration plan know: matched (with `catch` or `case`) by
    /// the failures of ``unknownDataStoreSchema``, which Strata throws in its place as SwiftData does from iOS 27
    /// (WWDC 2026) on.
    public static let unknownSchema = SwiftDataError(name: "unknownSchema")

    /// A history token names transactions whose history was deleted (or a token of another store): thrown by
    /// `fetchHistory` and `deleteHistory`. Refetch the data and take a new token.
    public static let historyTokenExpired = SwiftDataError(name: "historyTokenExpired")
    /// A history fetch or delete can't be run as asked: its transaction type is not the one the store records, or
    /// the container keeps its models in several stores, each with its own history.
    public static let invalidTransactionFetchRequest = SwiftDataError(name: "invalidTransactionFetchRequest")
    /// The store's schema version is not the current one nor any the migration plan lists (SwiftData's kind from
    /// iOS 27, WWDC 2026, on; earlier systems throw ``loadIssueModelContainer``, which `catch` and `case` still
    /// match): thrown by the container's initializers, with both versions in the `underlyingError`.
    public static let unknownDataStoreSchema = SwiftDataError(name: "unknownDataStoreSchema")

    /// Not one of SwiftData's kinds; Strata never throws it (a schema drops a repeated class).
    @available(*, deprecated, message: "SwiftData declares no such error; Strata never throws it")
    public static let duplicateRegisteredModel = SwiftDataError(name: "duplicateRegisteredModel")
}
