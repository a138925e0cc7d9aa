/// An error from Strata: what failed, and on which store, model or property.
///
/// A failure SwiftData has a kind for is thrown as the ``SwiftDataError`` of that kind, carrying this error as its
/// ``SwiftDataError/underlyingError``; the others (a closed store, a merge conflict, a store failure) are thrown as
/// they are. ``init(_:)`` takes the `StrataError` out of either:
///
/// ```swift
/// } catch {
///     if case .uniqueConstraintViolation(let entity, let properties)? = StrataError(error) { … }
/// }
/// ```
public enum StrataError: Error, CustomStringConvertible, Equatable {
    /// A save, insert or delete was attempted on a container configured with `allowsSave: false`.
    case readOnlyContainer(operation: String)
    /// The store file could not be opened or created.
    case storeOpenFailed(path: String, reason: String)
    /// The file exists but is not a Strata store (another SQLite database, another kind of file, or a corrupt one).
    /// The file was left untouched.
    case notAStrataStore(path: String, reason: String)
    /// The store holds a different schema than the models describe. The file was left untouched.
    case schemaMismatch(path: String, differences: [String])
    /// The models can't be stored as declared.
    case invalidSchema(entity: String, reason: String)
    /// A model type was used that is not part of the container's schema.
    case unknownEntity(String)
    /// Saving would store a duplicate value of a unique property (under the `.error` merge policy).
    case uniqueConstraintViolation(entity: String, properties: [String])
    /// A stored value does not fit the property's type.
    case invalidStoredValue(entity: String, property: String, found: String)
    /// A property's value can't be stored.
    case unrepresentableValue(entity: String, property: String, reason: String)
    /// A predicate expression can't be translated to SQL.
    case unsupportedPredicate(expression: String, reason: String)
    /// A sort descriptor can't be translated to SQL.
    case unsupportedSortDescriptor(description: String, reason: String)
    /// A model can't be deleted because its relationship with the `.deny` delete rule still has models.
    case deleteDenied(entity: String, relationship: String, count: Int)
    /// A to-many relationship holds fewer or more models than its `minimumModelCount` / `maximumModelCount`.
    case relationshipCountViolation(entity: String, relationship: String, count: Int, minimum: Int, maximum: Int)
    /// A model was saved while its non-optional to-one relationship held no model (or a deleted one).
    case missingRequiredRelationship(entity: String, relationship: String)
    /// The model does not belong to this context.
    case modelNotInContext(PersistentIdentifier)
    /// The store reported an error.
    case storeFailure(operation: String, reason: String)
    /// The store can't be migrated to the models: the change is not lossless and no migration stage handles it,
    /// or the stored data doesn't allow it. The file was left untouched.
    case migrationRefused(path: String, entity: String, property: String?, reason: String)
    /// The store's schema version is not one the migration plan lists.
    case unknownStoreVersion(path: String, storeVersion: String, planVersions: [String])
    /// Another container or process migrated the store after this container opened it: its models no longer
    /// match the store's tables, so nothing was read or written.
    case storeMigrated(path: String, version: String)
    /// Under `mergePolicy = .error`, a save changed or deleted models whose rows another context or process saved
    /// after this context read them (optimistic locking: each row's version moved). Nothing of the save was
    /// written and the context keeps its changes.
    ///
    /// Retry by reading the rows again and redoing the change, e.g. in a fresh context:
    /// ```swift
    /// while true {
    ///     let context = ModelContext(container)
    ///     context.mergePolicy = .error
    ///     guard let counter = try context.fetch(FetchDescriptor<Counter>()).first else { break }
    ///     counter.value += 1
    ///     do { try context.save(); break } catch StrataError.mergeConflict { continue }
    /// }
    /// ```
    case mergeConflict([MergeConflict])
    /// A history fetch asked for the transactions after a token whose history (or some after it) was deleted by
    /// `deleteHistory`, or after a token of another store, so the changes since the token can't all be given:
    /// SwiftData's `SwiftDataError.historyTokenExpired`. Start again from the current data and a token taken now.
    case historyTokenExpired(storeIdentifier: String, transaction: Int64, reason: String)
    /// The container was closed (`ModelContainer.close()`, `shutdown()`) or released, so its store no longer
    /// reads or writes: open a new `ModelContainer`. Models already read keep their values in memory.
    case storeClosed(path: String)
    /// A history fetch or delete can't be run as asked: the descriptor's transaction type is not the one the store
    /// records, or the container keeps its models in several stores, each with its own history. SwiftData's
    /// `SwiftDataError.invalidTransactionFetchRequest`.
    case invalidHistoryRequest(operation: String, reason: String)
    /// A configuration can't open a store: `kind` is SwiftData's name for the problem
    /// (`.configurationFileNameTooLong`, `.configurationFileNameContainsInvalidCharacters`,
    /// `.configurationSchemaNotFoundInContainerSchema`); nothing was opened or created.
    indirect case invalidConfiguration(name: String, kind: SwiftDataError, reason: String)
    /// An aggregate fetch can't be run as described: a group key, aggregate or sort key names a property that
    /// isn't a stored attribute of the model or of a model it reaches through to-one relationships (a to-many
    /// relationship, a computed property), or asks what the property's type can't answer. Nothing was read.
    case invalidAggregate(entity: String, property: String, reason: String)
    /// The sum of an integer property doesn't fit the property's type (Swift's `+` would trap): the exact sum is
    /// outside `type`'s range. Nothing is rounded or wrapped; sum into a wider type or narrow the predicate.
    case aggregateOverflow(entity: String, property: String, type: String, sum: String)

    /// What failed and where. A predicate or store failure quoting very long text (SQL, a huge predicate)
    /// shows its start and end with a note of how much was left out.
    public var description: String {
        switch self {
        case .readOnlyContainer(let operation):
            "Cannot \(operation): the container is read-only (its configuration has allowsSave: false)"
        case .storeOpenFailed(let path, let reason):
            "Cannot open the store at \(path): \(reason)"
        case .notAStrataStore(let path, let reason):
            "\(path) is not a Strata store (\(reason)); the file was left untouched"
        case .schemaMismatch(let path, let differences):
            "The store at \(path) holds a different schema than the models; the file was left untouched. Differences: "
                + differences.joined(separator: "; ")
        case .invalidSchema(let entity, let reason):
            "Model \(entity) can't be stored: \(reason)"
        case .unknownEntity(let name):
            "\(name) is not part of the container's schema; add it to ModelContainer(for:)"
        case .uniqueConstraintViolation(let entity, let properties):
            "Another \(entity) already has the same \(properties.joined(separator: ", ")) (unique constraint)"
        case .invalidStoredValue(let entity, let property, let found):
            "\(entity).\(property) holds \(found) in the store, which is not a valid value for the property"
        case .unrepresentableValue(let entity, let property, let reason):
            "\(entity).\(property) can't be stored: \(reason)"
        case .unsupportedPredicate(let expression, let reason):
            "The predicate can't be run in the store: \(expression.elided()): \(reason.elided())"
        case .unsupportedSortDescriptor(let description, let reason):
            "The sort descriptor \(description) can't be run in the store: \(reason)"
        case .deleteDenied(let entity, let relationship, let count):
            "Cannot delete a \(entity): its relationship \(relationship) has the deny delete rule and still holds \(count) model(s)"
        case .relationshipCountViolation(let entity, let relationship, let count, let minimum, let maximum):
            "\(entity).\(relationship) holds \(count) model(s); it must hold "
                + (maximum > 0 ? "between \(minimum) and \(maximum)" : "at least \(minimum)")
        case .missingRequiredRelationship(let entity, let relationship):
            "\(entity).\(relationship) is a required (non-optional) relationship but holds no model; assign it before saving"
        case .modelNotInContext(let identifier):
            "No model with identifier \(identifier) in this context"
        case .storeFailure(let operation, let reason):
            "The store failed to \(operation): \(reason.elided(limit: 2 * String.errorExcerptLimit))"
        case .migrationRefused(let path, let entity, let property, let reason):
            "Cannot migrate the store at \(path): \(entity)\(property.map { ".\($0)" } ?? ""): \(reason); the file was left untouched"
        case .unknownStoreVersion(let path, let storeVersion, let planVersions):
            "Cannot migrate the store at \(path): it holds schema version \(storeVersion), which the migration plan "
                + "doesn't list (its versions: \(planVersions.joined(separator: ", "))); the file was left untouched"
        case .storeMigrated(let path, let version):
            "The store at \(path) was migrated to version \(version) by another container or process; this container's "
                + "models are out of date, so nothing was read or written (open a new container with the current models)"
        case .historyTokenExpired(let store, let transaction, let reason):
            "The history token (transaction \(transaction) of store \(store)) has expired: \(reason); "
                + "the changes since the token are not all recorded, so refetch the data and take a new token"
        case .storeClosed(let path):
            "The store at \(path) is closed: its ModelContainer was closed or released; open a new ModelContainer to use it"
        case .invalidHistoryRequest(let operation, let reason):
            "Cannot \(operation): \(reason)"
        case .invalidConfiguration(let name, _, let reason):
            "The configuration \(name) can't open a store: \(reason)"
        case .invalidAggregate(let entity, let property, let reason):
            "The aggregate fetch of \(entity) can't use \(property): \(reason)"
        case .aggregateOverflow(let entity, let property, let type, let sum):
            "The sum of \(entity).\(property) is \(sum), which is outside the range of \(type)"
        case .mergeConflict(let conflicts):
            "The save conflicts with changes saved elsewhere since the models were read, so nothing was written: "
                + conflicts.map(\.description).joined(separator: "; ").elided()
        }
    }
}
