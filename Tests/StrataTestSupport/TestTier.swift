import Foundation

/// Which tiers of the suite run beyond the default one, from the environment.
package enum TestTier {
    /// Whether the failover tests run (`STRATA_FAILOVER_TESTS=1`): each starts a primary and a standby of its own
    /// and kills one, about 15 s, so `swift test` alone skips them and `.ci/run` runs them in a step of their own.
    package static var runsFailoverTests: Bool {
        ProcessInfo.processInfo.environment["STRATA_FAILOVER_TESTS"] == "1"
    }
}
