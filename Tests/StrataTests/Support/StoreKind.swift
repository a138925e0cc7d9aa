import Foundation
import Strata
import StrataPostgres
import StrataTestSupport
import Testing
@testable import StrataTestFixtures

/// The stores the behaviour suites run against, shared with the other test targets (StrataTestSupport).
typealias StoreKind = StrataTestSupport.StoreKind
/// The PostgreSQL server of the suite, shared with the other test targets (StrataTestSupport).
typealias PostgresTestServer = StrataTestSupport.PostgresTestServer
