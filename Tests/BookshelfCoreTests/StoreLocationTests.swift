import Foundation
import Strata
import StrataPostgres
import Testing

@testable import BookshelfCore

@Suite("Store location")
struct StoreLocationTests {
    @Test("--store takes a file path, or a PostgreSQL URI whose password never reaches the status line")
    func parsesStoreArgument() throws {
        var arguments = ["--store", "/tmp/shelf.store", "books", "list"]
        #expect(try StoreLocation.extract(from: &arguments) == .file("/tmp/shelf.store"))
        #expect(arguments == ["books", "list"])

        arguments = ["--store=postgresql://reader:s3cret@db.internal:5433/library?sslmode=disable"]
        let location = try StoreLocation.extract(from: &arguments)
        guard case .postgres(let url) = location else {
            Issue.record("expected a PostgreSQL location, got \(location)")
            return
        }
        #expect(url.host() == "db.internal")
        let configuration = try #require(location.configuration as? PostgresConfiguration)
        #expect(configuration.databaseSchema == "bookshelf")
        #expect(location.displayPath == "postgresql://reader:***@db.internal:5433/library (schema bookshelf)")
        #expect(!location.displayPath.contains("s3cret"))

        arguments = ["--store", "postgres:///library?host=/run/postgresql"]
        #expect(
            try StoreLocation.extract(from: &arguments)
                == .postgres(URL(string: "postgres:///library?host=/run/postgresql")!))
    }

    @Test("A PostgreSQL URI with neither host nor parameters is refused, without echoing it")
    func refusesBareURI() {
        var arguments = ["--store", "postgresql://"]
        #expect(
            throws: CommandError.invalidValue(
                option: "--store", value: "postgresql://…", expected: "a libpq connection URI")
        ) {
            try StoreLocation.extract(from: &arguments)
        }
    }

    @Test("The in-memory and file stores show where they are")
    func displayPaths() {
        #expect(StoreLocation.memory.displayPath == "(in memory)")
        #expect(StoreLocation.file("/tmp/shelf.store").displayPath == "/tmp/shelf.store")
    }
}
