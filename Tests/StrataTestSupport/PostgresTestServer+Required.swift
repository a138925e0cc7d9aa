import Foundation
import Testing

extension PostgresTestServer {
    /// Whether the PostgreSQL half of the suite must run (`STRATA_REQUIRE_POSTGRES=1`, as `.ci/run` sets): then a
    /// test that needs a server, or a tool a PostgreSQL test starts, runs and fails without it instead of skipping.
    package static var isRequired: Bool {
        ProcessInfo.processInfo.environment["STRATA_REQUIRE_POSTGRES"] == "1"
    }

    /// The server's URL; throws, naming what is missing, when there is no server.
    package static func requiredURL() throws -> URL {
        guard let url else { throw Unavailable(description: "no PostgreSQL server for the tests: \(howToGetOne)") }
        return url
    }

    /// What gives the tests a server.
    static let howToGetOne =
        "set STRATA_POSTGRES_URL, or install PostgreSQL's server binaries (/usr/lib/postgresql/*/bin)"

    /// A missing server, thrown by ``requiredURL()``.
    private struct Unavailable: Error, CustomStringConvertible {
        let description: String
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test, or every test of the suite, where the PostgreSQL half of the suite runs (``StoreKind/all``
    /// holds `.postgres`), and skips it elsewhere with the reason shown. With `STRATA_REQUIRE_POSTGRES=1` it always
    /// runs, so a missing server fails it.
    package static var needsPostgreSQL: Self {
        .enabled(
            if: StoreKind.all.contains(.postgres),
            "no PostgreSQL server: set STRATA_POSTGRES_URL, or install PostgreSQL's server binaries")
    }

    /// Runs the test where it can start PostgreSQL clusters of its own (``ThrowawayPostgresCluster``: the server
    /// binaries are installed), and skips it elsewhere with the reason shown. With `STRATA_REQUIRE_POSTGRES=1` it
    /// always runs, so missing binaries fail it.
    package static var needsPostgreSQLBinaries: Self {
        .enabled(
            if: PostgresTestServer.binaries() != nil || PostgresTestServer.isRequired,
            "no PostgreSQL server binaries (/usr/lib/postgresql/*/bin) to start a cluster of the test's own")
    }

    /// Runs the test where PgBouncer is installed (Debian's `pgbouncer` package) and the PostgreSQL half of the
    /// suite runs, and skips it elsewhere with the reason shown. With `STRATA_REQUIRE_POSTGRES=1` it always runs,
    /// so a missing PgBouncer fails it.
    package static var needsPgBouncer: Self {
        .enabled(
            if: (PgBouncerProcess.isInstalled || PostgresTestServer.isRequired) && StoreKind.all.contains(.postgres),
            "no PgBouncer (apt-get install pgbouncer), or no PostgreSQL server")
    }
}
