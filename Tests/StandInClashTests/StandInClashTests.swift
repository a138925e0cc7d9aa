import AppStandIns
import Foundation
import SwiftData
import Testing

@Model final class StandInItem {
    var name: String
    init(name: String) { self.name = name }
}

/// An app's own stand-ins for Foundation names Linux lacks, imported beside SwiftData, compile without ambiguity and
/// are the ones used: SwiftData's are `@_disfavoredOverload`. Serialized: the tests count calls of the app's
/// `autoreleasepool` in one shared counter.
@Suite(.serialized) struct StandInClashTests {
    @Test func theAppsAutoreleasepoolIsCalled() {
        let before = appAutoreleasepoolCalls.load(ordering: .relaxed)
        let value = autoreleasepool { 42 }
        autoreleasepool(invoking: { _ = value })
        #expect(value == 42)
        #expect(appAutoreleasepoolCalls.load(ordering: .relaxed) == before + 2)
    }

    @Test func theAppsModuleCallsItsOwnStandInsUnqualified() {
        let before = appAutoreleasepoolCalls.load(ordering: .relaxed)
        #expect(useOwnStandIns())
        #expect(appAutoreleasepoolCalls.load(ordering: .relaxed) == before + 1)
    }

    @Test func theAppsLocalizedStandardIsUsed() {
        let descriptor = SortDescriptor(\StandInItem.name, comparator: .localizedStandard)
        #expect(descriptor.stringComparator == .lexical)
        #expect(String.StandardComparator.localizedStandard == .lexical)
        // SwiftData's own comparator, which the app's stand-in hides, stays reachable by the comparators it pairs with.
        #expect(String.StandardComparator.localized != .lexical)
    }
}
