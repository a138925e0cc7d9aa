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

/// SwiftData's `SwiftDataError` spellings match Strata's failures of that kind, while the thrown `StrataError` keeps
/// its detail and its own `catch StrataError.…` patterns.
@Suite struct SwiftDataErrorTests {
    @Test func aStoreThatIsNotAStoreIsALoadIssue() throws {
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
        // The same failure, caught as Strata's, names the file.
        do {
            _ = try ModelContainer(for: ErrorTrip.self, configurations: ModelConfiguration(url: url))
        } catch StrataError.notAStrataStore(let path, _) {
            #expect(path == url.path)
        }
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
            #expect(SwiftDataError(error) == .unsupportedPredicate)
            #expect(SwiftDataError(error) != .unsupportedSortDescriptor)
            switch error {
            case SwiftDataError.unsupportedPredicate: break
            default: Issue.record("\(error) is not SwiftDataError.unsupportedPredicate")
            }
            #expect((error as? StrataError)?.swiftDataError == .unsupportedPredicate)
            #expect(String(describing: error).contains("predicate"))
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
        #expect(throws: StrataError.self) { try context.save() }
        do {
            try context.save()
        } catch SwiftDataError.modelValidationFailure {
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func kindsCompareByName() {
        let all: [SwiftDataError] = [
            .includePendingChangesWithBatchSize, .sortingPendingChangesWithIdentifiers, .unsupportedKeyPath,
            .unsupportedPredicate, .unsupportedSortDescriptor, .historyTokenExpired, .invalidTransactionFetchRequest,
            .loadIssueModelContainer, .unknownSchema, .unknownDataStoreSchema, .backwardMigration,
            .duplicateRegisteredModel,
            .modelValidationFailure, .configurationFileNameTooLong, .configurationFileNameContainsInvalidCharacters,
            .configurationSchemaNotFoundInContainerSchema,
        ]
        #expect(Set(all).count == all.count)
        let thrown: any Error = SwiftDataError.backwardMigration
        #expect((thrown as? SwiftDataError) == .backwardMigration)
        if case SwiftDataError.backwardMigration = thrown {} else { Issue.record("no match") }
    }
}
