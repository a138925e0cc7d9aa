import Foundation
import SwiftData
import Testing

/// `FetchDescriptor` is `Equatable`, as on iOS 26: apps compare a query's descriptor with the last one before
/// fetching again.
@Suite struct FetchDescriptorEquatableTests {
    @Test func descriptorsAreEqualWhenTheyFetchTheSameWay() {
        let minimum = 3
        var first = FetchDescriptor<AutosavedEntry>(
            predicate: #Predicate { $0.text.count > minimum }, sortBy: [SortDescriptor(\.text)])
        first.fetchLimit = 10
        var second = first
        #expect(first == second)
        // The same predicate written again, with the same captured value, is equal too.
        second.predicate = #Predicate { $0.text.count > minimum }
        #expect(first == second)

        let other = 4
        second.predicate = #Predicate { $0.text.count > other }
        #expect(first != second)
        second = first
        second.fetchLimit = 11
        #expect(first != second)
        second = first
        second.sortBy = [SortDescriptor(\.text, order: .reverse)]
        #expect(first != second)
        second = first
        second.propertiesToFetch = [\.text]
        #expect(first != second)
        second = first
        second.includePendingChanges = false
        #expect(first != second)
        #expect(FetchDescriptor<AutosavedEntry>() == FetchDescriptor<AutosavedEntry>())
        #expect(FetchDescriptor<AutosavedEntry>(predicate: FormatPredicate(format: "text == 'a'")) != .init())
    }
}
