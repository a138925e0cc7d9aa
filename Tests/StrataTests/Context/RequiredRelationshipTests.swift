import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

@Model final class ReqShelf {
    var label: String
    init(label: String) { self.label = label }
}

@Model final class ReqBook {
    var title: String
    var shelf: ReqShelf
    init(title: String, shelf: ReqShelf) {
        self.title = title
        self.shelf = shelf
    }
}

/// A required to-one whose row holds no model (written outside Strata) reads as a deleted stand-in, never a trap,
/// and the model can't be saved until it is assigned.
@Suite struct RequiredRelationshipTests {
    @Test(arguments: StoreKind.all)
    func aRowWithoutItsRequiredModelReadsAsADeletedStandIn(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        try store.seed(ReqBook.self, ReqShelf.self) { context in
            context.insert(ReqBook(title: "Dune", shelf: ReqShelf(label: "SF")))
        }
        try store.execute("UPDATE \"ReqBook\" SET \"shelf\" = NULL")
        let context = try store.reopen(ReqBook.self, ReqShelf.self)
        let book = try #require(try context.fetch(FetchDescriptor<ReqBook>()).first)
        #expect(book.shelf.isDeleted)
        #expect(book.shelf.label == "")
        book.title = "Dune Messiah"
        #expect {
            try context.save()
        } throws: {
            ($0 as? SwiftDataError)?.underlyingError
                == StrataError.missingRequiredRelationship(entity: "ReqBook", relationship: "shelf")
        }
        book.shelf = try #require(try context.fetch(FetchDescriptor<ReqShelf>()).first)
        try context.save()
        #expect(try ModelContext(context.container).fetch(FetchDescriptor<ReqBook>()).first?.shelf.label == "SF")
    }
}
