import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

/// The SQL of the relationship nodes of `QueryExpression`, pinned.
@Suite struct RelatedQuerySQLTests {
    private let schema = Schema([RelAuthor.self, RelBook.self, RelChapter.self, RelTag.self])

    private func hop<T: PersistentModel>(_ entity: T.Type, _ name: String) throws -> RelationshipHop {
        let owner = try #require(schema.entity(for: entity))
        return try #require(RelationshipHop(owner: owner, relationshipNamed: name))
    }

    @Test func onlyRelationshipsMakeHops() throws {
        let book = try #require(schema.entity(for: RelBook.self))
        #expect(RelationshipHop(owner: book, relationshipNamed: "title") == nil)
        #expect(RelationshipHop(owner: book, relationshipNamed: "missing") == nil)
        #expect(try hop(RelBook.self, "author").destination.name == "RelAuthor")
    }

    private func render(_ expression: QueryExpression) -> String {
        expression.sql.render(in: SQLiteDialect()).sql
    }

    @Test func toOneChainIsACorrelatedScalarSubquery() throws {
        let path = RelatedPath(hops: [try hop(RelChapter.self, "book"), try hop(RelBook.self, "author")])
        #expect(
            render(.equal(.related(path, .column("name")), .value(.text("Le Guin"))))
                == #"((SELECT "t2"."name" FROM "RelBook" AS "t1" JOIN "RelAuthor" AS "t2" ON "t2"."Z_PK" = "t1"."author" "#
                + #"WHERE "t1"."Z_PK" = "RelChapter"."book") IS ?)"#)
    }

    @Test func toManyThroughTheInverseForeignKey() throws {
        let query = RelatedQuery(
            path: RelatedPath(hops: [try hop(RelAuthor.self, "books")]),
            condition: .equal(.column("title"), .value(.text("Dune"))))
        #expect(
            render(.exists(query))
                == #"EXISTS (SELECT 1 FROM "RelBook" AS "t1" WHERE "t1"."author" = "RelAuthor"."Z_PK" AND ("t1"."title" IS ?))"#
        )
        #expect(
            render(.relatedCount(RelatedQuery(path: query.path)))
                == #"(SELECT count(*) FROM "RelBook" AS "t1" WHERE "t1"."author" = "RelAuthor"."Z_PK")"#)
    }

    @Test func manyToManyGoesThroughTheJoinTable() throws {
        let query = RelatedQuery(path: RelatedPath(hops: [try hop(RelBook.self, "tags")]))
        #expect(
            render(.relatedAggregate(.maximum, query, .column("name")))
                == #"(SELECT max("t1"."name") FROM "Z_RelBook_tags__RelTag_books" AS "j1" JOIN "RelTag" AS "t1" "#
                + #"ON "t1"."Z_PK" = "j1"."Z_SECOND" WHERE "j1"."Z_FIRST" = "RelBook"."Z_PK")"#)
    }

    @Test func nestedScopesContinueTheAliases() throws {
        let books = RelatedQuery(
            path: RelatedPath(hops: [try hop(RelBook.self, "author"), try hop(RelAuthor.self, "books")]))
        let inner = QueryExpression.relatedCount(
            RelatedQuery(path: RelatedPath(hops: [try hop(RelBook.self, "chapters")])))
        #expect(
            render(.exists(RelatedQuery(path: books.path, condition: .compare(inner, .greater, .value(.integer(1))))))
                == #"EXISTS (SELECT 1 FROM "RelAuthor" AS "t1" JOIN "RelBook" AS "t2" ON "t2"."author" = "t1"."Z_PK" "#
                + #"WHERE "t1"."Z_PK" = "RelBook"."author" AND ((SELECT count(*) FROM "RelChapter" AS "t3" "#
                + #"WHERE "t3"."book" = "t2"."Z_PK") > ?))"#)
    }
}

@Suite struct RelatedEntityNamesTests {
    @Test func nestedScopesReportEveryEntityTheyRead() throws {
        let schema = Schema([RelAuthor.self, RelBook.self, RelChapter.self, RelTag.self])
        let entity = try #require(schema.entity(for: RelAuthor.self))
        let expression = try PredicateTranslator.translate(
            #Predicate<RelAuthor> { $0.name == "x" || $0.books.contains { $0.tags.contains { $0.name == "sf" } } },
            entity: entity)
        #expect(expression.relatedEntityNames == ["RelBook", "RelTag"])
        let plain = try PredicateTranslator.translate(#Predicate<RelAuthor> { $0.name == "x" }, entity: entity)
        #expect(plain.relatedEntityNames.isEmpty)
    }
}
