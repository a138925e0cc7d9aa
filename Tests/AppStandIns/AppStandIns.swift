// Stand-ins an app keeps for Foundation names Linux lacks, in a module of its own that the app imports beside
// SwiftData, as apps ported from Apple's platforms do. StandInClashTests checks that these are the ones called.
import Foundation
import Synchronization

/// How many times the app's `autoreleasepool(invoking:)` ran.
public let appAutoreleasepoolCalls = Atomic<Int>(0)

/// The app's own `autoreleasepool(invoking:)`: runs `body` and counts the call.
public func autoreleasepool<Result>(invoking body: () throws -> Result) rethrows -> Result {
    appAutoreleasepoolCalls.add(1, ordering: .relaxed)
    return try body()
}

extension String.StandardComparator {
    /// The app's own stand-in, which sorts lexically.
    public static let localizedStandard: String.StandardComparator = .lexical
}
