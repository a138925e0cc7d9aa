extension StrataError {
    /// The SwiftData kinds this error is (see ``SwiftDataError``), most specific first; empty for failures
    /// SwiftData has no kind for (a store failure, a closed store, a merge conflict).
    public var swiftDataErrors: [SwiftDataError] {
        switch self {
        case .storeOpenFailed, .notAStrataStore, .schemaMismatch, .migrationRefused:
            [.loadIssueModelContainer]
        case .unknownStoreVersion(_, let storeVersion, let planVersions):
            (Self.version(storeVersion, isNewerThanAll: planVersions) ? [.backwardMigration] : [])
                + [.unknownDataStoreSchema, .unknownSchema, .loadIssueModelContainer]
        case .invalidSchema:
            [.loadIssueModelContainer]
        case .unsupportedPredicate:
            [.unsupportedPredicate]
        case .unsupportedSortDescriptor:
            [.unsupportedSortDescriptor]
        case .invalidAggregate:
            [.unsupportedPredicate]
        case .historyTokenExpired:
            [.historyTokenExpired]
        case .invalidHistoryRequest:
            [.invalidTransactionFetchRequest]
        case .invalidConfiguration(_, let kind, _):
            [kind, .loadIssueModelContainer]
        case .uniqueConstraintViolation, .deleteDenied, .relationshipCountViolation, .missingRequiredRelationship,
            .unrepresentableValue:
            [.modelValidationFailure]
        case .readOnlyContainer, .unknownEntity, .invalidStoredValue, .modelNotInContext, .storeFailure, .storeMigrated,
            .mergeConflict, .storeClosed, .aggregateOverflow:
            []
        }
    }

    /// Whether `version` ("9.0.0", or "9.0.0 (…)" with a note) is newer than each of `others`; `false` when any
    /// doesn't start with a dotted version.
    private static func version(_ version: String, isNewerThanAll others: [String]) -> Bool {
        func parts(_ text: String) -> [Int]? {
            let parts = text.prefix { $0 != " " }.split(separator: ".").map { Int($0) }
            return parts.isEmpty || parts.contains(nil) ? nil : parts.compactMap(\.self)
        }
        guard let stored = parts(version), !others.isEmpty else { return false }
        return others.allSatisfy { other in
            guard let listed = parts(other) else { return false }
            return stored.lexicographicallyPrecedes(listed) == false && stored != listed
        }
    }

    /// The most specific SwiftData kind of this error, if it has one.
    public var swiftDataError: SwiftDataError? { swiftDataErrors.first }

    /// The Strata error `error` is or reports: itself when it is a `StrataError`, the
    /// ``SwiftDataError/underlyingError`` of a `SwiftDataError`; `nil` for any other error.
    public init?(_ error: any Error) {
        if let error = error as? StrataError {
            self = error
        } else if let error = (error as? SwiftDataError)?.underlyingError {
            self = error
        } else {
            return nil
        }
    }

    /// This error as Strata's public API throws it: the ``SwiftDataError`` of its kind carrying it, or itself when
    /// SwiftData has no kind for it.
    package var thrownValue: any Error {
        guard let kind = swiftDataError else { return self }
        return SwiftDataError(kind, underlyingError: self)
    }
}

/// Runs `body` of a public API, throwing a `StrataError` SwiftData has a kind for as that ``SwiftDataError``
/// (see ``StrataError/thrownValue``); other errors pass as they are.
@inline(__always)
package func throwingSwiftDataErrors<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as StrataError {
        throw error.thrownValue
    }
}
