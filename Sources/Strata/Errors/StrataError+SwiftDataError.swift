extension StrataError {
    /// The SwiftData kinds this error is (see ``SwiftDataError``), most specific first; empty for failures
    /// SwiftData has no kind for (a store failure, a closed store, a merge conflict).
    public var swiftDataErrors: [SwiftDataError] {
        switch self {
        case .storeOpenFailed, .notAStrataStore, .schemaMismatch, .migrationRefused:
            [.loadIssueModelContainer]
        case .unknownStoreVersion:
            [.unknownDataStoreSchema, .unknownSchema, .loadIssueModelContainer]
        case .invalidSchema:
            [.loadIssueModelContainer]
        case .unsupportedPredicate:
            [.unsupportedPredicate]
        case .unsupportedSortDescriptor:
            [.unsupportedSortDescriptor]
        case .historyTokenExpired:
            [.historyTokenExpired]
        case .invalidConfiguration(_, let kind, _):
            [kind, .loadIssueModelContainer]
        case .uniqueConstraintViolation, .deleteDenied, .relationshipCountViolation, .missingRequiredRelationship,
            .unrepresentableValue:
            [.modelValidationFailure]
        case .readOnlyContainer, .unknownEntity, .invalidStoredValue, .modelNotInContext, .storeFailure, .storeMigrated,
            .mergeConflict, .storeClosed:
            []
        }
    }

    /// The most specific SwiftData kind of this error, if it has one.
    public var swiftDataError: SwiftDataError? { swiftDataErrors.first }
}
