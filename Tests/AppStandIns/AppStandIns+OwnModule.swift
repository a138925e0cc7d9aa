// The app's module calling its own stand-ins unqualified while it imports SwiftData, whose stand-ins for the same
// names must not make the calls ambiguous: a module's own declarations are the ones its code calls.
import Foundation
import SwiftData

/// The app's own stand-in for Observation's continuous observation, internal to its module as apps keep them: it
/// calls `apply` once, at once.
struct ObservationTracking {
    struct Options: OptionSet {
        let rawValue: Int
        static let willSet = Options(rawValue: 1)
        static let didSet = Options(rawValue: 2)
    }

    struct Event {
        let isStandIn = true
    }

    final class Token {
        func cancel() {}
    }
}

func withContinuousObservation(
    options: ObservationTracking.Options, apply: (ObservationTracking.Event) -> Void
) -> ObservationTracking.Token {
    apply(ObservationTracking.Event())
    return ObservationTracking.Token()
}

/// Runs the app's own stand-ins as its code calls them, unqualified: an autorelease pool (counted in
/// `appAutoreleasepoolCalls`) and a continuous observation, whose event says it came from the stand-in.
public func useOwnStandIns() -> Bool {
    var sawStandIn = false
    autoreleasepool {
        let token = withContinuousObservation(options: [.didSet]) { event in sawStandIn = event.isStandIn }
        token.cancel()
    }
    return sawStandIn
}
