import Foundation
import Strata
import Testing

@Model final class PredicateAuthor {
    var name: String
    @Relationship(inverse: \PredicateNovel.author) var novels: [PredicateNovel] = []
    init(name: String) { self.name = name }
}

@Model final class PredicateNovel {
    var title: String
    var author: PredicateAuthor?
    init(title: String) { self.title = title }
}

/// Key paths through relationships come with a later issue; until then they fail with a clear error.
@Suite struct PredicateRelationshipTests {
    @Test func keyPathsThroughRelationshipsAreRejectedByName() throws {
        let entity = try #require(Schema([PredicateNovel.self, PredicateAuthor.self]).entity(for: PredicateNovel.self))
        let name = "Le Guin"
        #expect {
            try PredicateTranslator.translate(#Predicate<PredicateNovel> { $0.author?.name == name }, entity: entity)
        } throws: { error in
            guard case StrataError.unsupportedPredicate(_, let reason) = error else { return false }
            return reason == "PredicateNovel.author is a relationship"
        }
    }
}
