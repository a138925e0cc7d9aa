import Foundation
import SwiftData
import Testing

@Model final class ErrorTrip {
    var name: String
    var start: Date = Date(timeIntervalSince1970: 0)
    init(name: String) { self.name = name }
}

@Model final class ErrorPlace {
    @Attribute(.unique) var code: String
    init(code: String) { self.code = code }
}

/// `ErrorTrip` with a required attribute the stored rows have no value for: an inferred migration refuses it.
enum ErrorTripWithCountry {
    @Model final class ErrorTrip {
        var name: String
        var start: Date = Date(timeIntervalSince1970: 0)
        var country: String
        init(name: String, country: String) {
            self.name = name
            self.country = country
        }
    }
}

/// What Strata throws where SwiftData throws a `SwiftDataError` is one, as apps test it: `as?`, `is`, `==`,
/// `switch`, `catch SwiftDataError.…`; Strata's detail stays in `underlyingError` and the description.
@Suite struct SwiftDataErrorTests {
    @Test func aFileThatIsNotAStoreIsALoadIssue() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "not-a-store-\(UUID().uuidString).store")
        try Data("plain text, not a database".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        var caught = false
        do {
            _ = try ModelContainer(for: ErrorTrip.self, configurations: ModelConfiguration(url: url))
        } catch SwiftDataError.loadIssueModelContainer {
            caught = true
        } catch {
            Issue.record("unexpected \(error)")
        }
        #expect(caught)
        do {
            _ = try ModelContainer(for: ErrorTrip.self, configurations: ModelConfiguration(url: url))
            Issue.record("a text file opened as a store")
        } catch {
            #expect(error is SwiftDataError)
            #expect((error as? SwiftDataError) == .loadIssueModelContainer)
            guard let error = error as? SwiftDataError else { return }
            guard case .notAStrataStore(let path, _)? = error.underlyingError else {
                Issue.record("expected notAStrataStore, got \(error)")
                return
            }
            #expect(path == url.path)
            #expect(error.description.contains(url.path))
            #expect(error.localizedDescription.contains(url.path))
        }
    }

    @Test(arguments: StoreKind.all) func aRefusedMigrationIsALoadIssueNamingTheProperty(_ kind: StoreKind) throws {
        let store = CompatibilityStore(kind)
        let seeded = ModelContext(try store.container(ErrorTrip.self))
        seeded.insert(ErrorTrip(name: "Lisbon"))
        try seeded.save()
        let before = try store.snapshot()
        do {
            _ = try store.container(ErrorTripWithCountry.ErrorTrip.self)
            Issue.record("a required attribute without values was added over stored rows")
        } catch let error as SwiftDataError {
            #expect(error == .loadIssueModelContainer)
            guard case .migrationRefused(_, let entity, let property, let reason)? = error.underlyingError else {
                Issue.record("expected migrationRefused, got \(error)")
                return
            }
            #expect(entity == "ErrorTrip" && property == "country")
            #expect(reason.contains("String"))
            #expect(error.description.contains("ErrorTrip.country"))
        }
        #expect(try store.snapshot() == before)
    }

    @Test(arguments: StoreKind.all) func aStoreNewerThanThePlanIsABackwardMigrationNamingBothVersions(
        _ kind: StoreKind
    ) throws {
        let store = CompatibilityStore(kind)
        _ = try store.container(Schema(versionedSchema: VoyageSchemaFuture.self))
        let before = try store.snapshot()
        do {
            _ = try store.container(
                Schema(versionedSchema: VoyageSchemaV3.self), migrationPlan: VoyageMigrationPlan.self)
            Issue.record("a store at version 9.0.0 opened with a plan ending at 3.0.0")
        } catch {
            #expect((error as? SwiftDataError) == .backwardMigration)
            // Code written for the kinds of earlier systems still matches it.
            for kind in [SwiftDataError.unknownDataStoreSchema, .unknownSchema, .loadIssueModelContainer] {
                switch error {
                case kind: break
                default: Issue.record("\(error) does not match \(kind)")
                }
            }
            #expect("\(error)".contains("9.0.0") && "\(error)".contains("1.0.0, 2.0.0, 3.0.0"))
            guard case .unknownStoreVersion(_, let stored, let listed)? = StrataError(error) else {
                Issue.record("expected unknownStoreVersion, got \(error)")
                return
            }
            #expect(stored.contains("9.0.0"))
            #expect(listed == ["1.0.0", "2.0.0", "3.0.0"])
        }
        #expect(try store.snapshot() == before)
    }

    @Test(arguments: StoreKind.all) func anUnsupportedPredicateIsOfThatKind(_ kind: StoreKind) throws {
        let context = ModelContext(try freshContainer(kind, ErrorTrip.self))
        context.insert(ErrorTrip(name: "Lisbon"))
        try context.save()
        let unsupported = #Predicate<ErrorTrip> { $0.start.timeIntervalSince1970 > 0 }
        do {
            _ = try context.fetch(FetchDescriptor(predicate: unsupported))
            Issue.record("the predicate ran")
        } catch {
            #expect((error as? SwiftDataError) == .unsupportedPredicate)
            #expect((error as? SwiftDataError) != .unsupportedSortDescriptor)
            switch error {
            case SwiftDataError.unsupportedPredicate: break
            default: Issue.record("\(error) is not SwiftDataError.unsupportedPredicate")
            }
            if let error = error as? SwiftDataError {
                guard case .unsupportedPredicate(let expression, let reason)? = error.underlyingError else {
                    Issue.record("expected unsupportedPredicate, got \(error)")
                    return
                }
                #expect(!expression.isEmpty && !reason.isEmpty)
                #expect(error.description.contains(reason))
            } else {
                Issue.record("\(error) is not a SwiftDataError")
            }
        }
        #expect(throws: SwiftDataError.unsupportedPredicate) {
            try context.fetchCount(FetchDescriptor(predicate: unsupported))
        }
        #expect(throws: SwiftDataError.unsupportedPredicate) {
            try context.delete(model: ErrorTrip.self, where: unsupported)
        }
    }

    @Test(arguments: StoreKind.all) func anExpiredHistoryTokenIsOfThatKind(_ kind: StoreKind) throws {
        let context = ModelContext(try freshContainer(kind, ErrorTrip.self))
        context.insert(ErrorTrip(name: "a"))
        try context.save()
        let early = try #require(try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).last?.token)
        context.insert(ErrorTrip(name: "b"))
        try context.save()
        let processed = try #require(
            try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).last?.token)
        try context.deleteHistory(
            HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token <= processed }))
        // An app's "reset the expired token" path.
        var token: DefaultHistoryToken? = early
        var resets = 0
        do {
            _ = try context.fetchHistory(
                HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token > early }))
        } catch {
            if (error as? SwiftDataError) == .historyTokenExpired {
                token = nil
                resets += 1
            }
        }
        #expect(token == nil && resets == 1)
        var caught: SwiftDataError?
        do {
            _ = try context.fetchHistory(
                HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token > early }))
        } catch SwiftDataError.historyTokenExpired {
            caught = .historyTokenExpired
        }
        #expect(caught == .historyTokenExpired)
        #expect(caught?.debugDescription == "SwiftDataError.historyTokenExpired")
    }

    @Test(arguments: StoreKind.all) func aTakenUniqueValueIsAValidationFailure(_ kind: StoreKind) throws {
        let context = ModelContext(try freshContainer(kind, ErrorPlace.self))
        context.mergePolicy = .error
        context.insert(ErrorPlace(code: "LIS"))
        try context.save()
        context.insert(ErrorPlace(code: "LIS"))
        let error = #expect(throws: SwiftDataError.modelValidationFailure) { try context.save() }
        #expect(error?.underlyingError == .uniqueConstraintViolation(entity: "ErrorPlace", properties: ["code"]))
        do {
            try context.save()
        } catch let error as SwiftDataError where error == .modelValidationFailure {
            #expect(error.localizedDescription.contains("ErrorPlace") && error.localizedDescription.contains("code"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func aConfigurationNameThatCannotBeAFileIsOfItsKind() {
        do {
            _ = try ModelContainer(
                for: ErrorTrip.self, configurations: ModelConfiguration("trips/archive", isStoredInMemoryOnly: true))
            Issue.record("a configuration named with a / opened")
        } catch {
            #expect((error as? SwiftDataError) == .configurationFileNameContainsInvalidCharacters)
            #expect("\(error)".contains("trips/archive"))
        }
        #expect(throws: SwiftDataError.configurationSchemaNotFoundInContainerSchema) {
            try ModelContainer(
                for: Schema([ErrorTrip.self]),
                configurations: ModelConfiguration(schema: Schema([ErrorPlace.self]), isStoredInMemoryOnly: true))
        }
    }

    @Test func aConfigurationGivenTwiceIsADuplicate() {
        let configuration = ModelConfiguration("trips", isStoredInMemoryOnly: true)
        do {
            _ = try ModelContainer(for: ErrorTrip.self, configurations: configuration, configuration)
            Issue.record("a container opened with one configuration given twice")
        } catch {
            #expect((error as? SwiftDataError) == .duplicateConfiguration)
            #expect("\(error)".contains("trips") && "\(error)".contains("given twice"))
        }
    }

    @Test(arguments: StoreKind.all) func aHistoryFetchOfAnotherTransactionTypeIsAnInvalidRequest(
        _ kind: StoreKind
    )
        throws
    {
        let context = ModelContext(try freshContainer(kind, ErrorTrip.self))
        context.insert(ErrorTrip(name: "Lisbon"))
        try context.save()
        do {
            _ = try context.fetchHistory(HistoryDescriptor<JSONHistoryTransaction>())
            Issue.record("a history of another transaction type was fetched")
        } catch SwiftDataError.invalidTransactionFetchRequest {
        } catch {
            Issue.record("unexpected \(error)")
        }
        #expect(throws: SwiftDataError.invalidTransactionFetchRequest) {
            try context.deleteHistory(HistoryDescriptor<JSONHistoryTransaction>())
        }
    }

    @Test func appsThrowMissingModelContextThemselves() {
        func deleteAll(in context: ModelContext?) throws {
            guard context != nil else { throw SwiftDataError.missingModelContext }
        }
        #expect(throws: SwiftDataError.missingModelContext) { try deleteAll(in: nil) }
        do {
            try deleteAll(in: nil)
        } catch {
            #expect(error is SwiftDataError)
            #expect((error as? SwiftDataError)?.underlyingError == nil)
            #expect(error.localizedDescription == "SwiftDataError.missingModelContext")
        }
    }

    @Test(arguments: StoreKind.all) func failuresSwiftDataHasNoKindForStayStrataErrors(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, ErrorTrip.self)
        let context = ModelContext(container)
        context.insert(ErrorTrip(name: "Lisbon"))
        try context.save()
        container.close()
        do {
            _ = try context.fetch(FetchDescriptor<ErrorTrip>())
            Issue.record("a closed container fetched")
        } catch let error as StrataError {
            guard case .storeClosed = error else {
                Issue.record("expected storeClosed, got \(error)")
                return
            }
            #expect(SwiftDataError(error) == nil)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func kindsCompareByNameWhateverTheirDetail() throws {
        // Apple's kinds, iOS 17 to iOS 27.
        let all: [SwiftDataError] = [
            .includePendingChangesWithBatchSize, .sortingPendingChangesWithIdentifiers, .unsupportedKeyPath,
            .unsupportedPredicate, .unsupportedSortDescriptor, .configurationFileNameContainsInvalidCharacters,
            .configurationFileNameTooLong, .configurationSchemaNotFoundInContainerSchema, .duplicateConfiguration,
            .loadIssueModelContainer, .modelValidationFailure, .missingModelContext, .backwardMigration,
            .unknownSchema, .historyTokenExpired, .invalidTransactionFetchRequest, .unknownDataStoreSchema,
        ]
        #expect(Set(all).count == 17)
        let thrown: any Error = SwiftDataError.backwardMigration
        #expect((thrown as? SwiftDataError) == .backwardMigration)
        if case SwiftDataError.backwardMigration = thrown {} else { Issue.record("no match") }
        let detailed = try #require(
            SwiftDataError(
                StrataError.historyTokenExpired(
                    storeIdentifier: "s", transaction: 3, reason: "deleted")))
        #expect(detailed == .historyTokenExpired)
        #expect(Set([detailed, .historyTokenExpired]).count == 1)
        #expect(detailed.description.hasPrefix("historyTokenExpired: "))
        #expect(detailed.description.contains("transaction 3"))
        #expect(SwiftDataError.historyTokenExpired.description == "historyTokenExpired")
    }
}
