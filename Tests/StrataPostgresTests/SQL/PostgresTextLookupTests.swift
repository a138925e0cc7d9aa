import Foundation
import StrataTestSupport
import Testing

@testable import Strata
@testable import StrataPostgres
@testable import StrataTestFixtures

/// The guards around PostgreSQL's text lookups: a text call spelled without its pre-pass refuses non-simple text,
/// and a value the pre-pass never saw fails the statement as a serialization failure, never with another answer.
@Suite("PostgreSQL: text lookups answer only the values they were computed for", .needsPostgreSQL)
struct PostgresTextLookupTests {
    /// A store holding ASCII and non-ASCII titles, a connection to its schema, and the condition `title CONTAINS[c] "é"`.
    private func fixture() throws -> (PostgresConnection, Schema.Entity, QueryExpression) {
        let url = try PostgresTestServer.requiredURL()
        let store = TestStore(.postgres)
        let container = try store.container(LookupAuthor.self, LookupBook.self)
        let context = ModelContext(container)
        for (serial, title) in ["plain", "École", "café", "CAFÉ au lait"].enumerated() {
            context.insert(LookupBook(serial: serial, title: title))
        }
        try context.save()
        let entity = try #require(container.schema.entity(for: LookupBook.self))
        let condition = try FormatTranslator.translate(
            FormatPredicate(format: "title CONTAINS[c] %@", "é"), entity: entity)
        let connection = try PostgresConnection(
            conninfo: url.absoluteString, settings: ["SET search_path TO \"\(store.databaseSchema)\""])
        return (connection, entity, condition)
    }

    private func count(
        _ select: PostgresSelect, _ entity: Schema.Entity, _ condition: QueryExpression,
        on connection: PostgresConnection
    ) throws -> Int64 {
        let (sql, bindings) = try select.count(StoreFetch(entity: entity, columns: nil, condition: condition)).render(
            in: select.writer.dialect)
        return try connection.query(sql, bindings).int64(row: 0, column: 0)
    }

    @Test("With its answers the query matches Foundation; spelled without them it refuses the non-ASCII rows (SA001)")
    func withoutAPrePassNonSimpleTextIsRefused() throws {
        let (connection, entity, condition) = try fixture()
        let bare = PostgresSelect(writer: PostgresQueryWriter())
        #expect(try bare.answering(entity, condition: condition, on: connection).writer.lookups.calls.count == 1)
        #expect(
            try count(bare.answering(entity, condition: condition, on: connection), entity, condition, on: connection)
                == 3)
        let error = #expect(throws: PostgresError.self) { try count(bare, entity, condition, on: connection) }
        #expect(error?.sqlState == PostgresFunctions.unsupportedState)
    }

    @Test("A row changed after the answers were computed fails the query with SQLSTATE 40001, which a save runs again")
    func aValueThePrePassNeverSawIsASerializationFailure() throws {
        let (connection, entity, condition) = try fixture()
        let answering = try PostgresSelect(writer: PostgresQueryWriter()).answering(
            entity, condition: condition, on: connection)
        try connection.execute("UPDATE \"LookupBook\" SET title = 'Zoë' WHERE serial = 0")
        let error = #expect(throws: PostgresError.self) { try count(answering, entity, condition, on: connection) }
        #expect(error?.isRetryable == true)
    }
}
