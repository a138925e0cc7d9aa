import Foundation
import SwiftData
import Testing

// Shapes from a public books sample: non-final models with convenience initializers, a many-to-many relationship
// whose inverse one side names, a required to-one whose inverse the other side declares, a compound `#Unique`,
// and `#Index` over an attribute and a to-one.

@Model class Writer {
    #Unique<Writer>([\.givenName, \.familyName])
    var givenName: String
    var familyName: String
    var novels: [Novel]

    var fullName: String { "\(givenName) \(familyName)" }

    init(givenName: String, familyName: String, novels: [Novel]) {
        self.givenName = givenName
        self.familyName = familyName
        self.novels = novels
    }

    convenience init(givenName: String, familyName: String) {
        self.init(givenName: givenName, familyName: familyName, novels: [])
    }
}

@Model class Novel {
    #Index<Novel>([\.title], [\.shelf])
    var title: String
    var shelf: Shelf
    var note: String = ""
    @Relationship(inverse: \Writer.novels)
    var writers: [Writer]

    init(title: String, shelf: Shelf, writers: [Writer]) {
        self.title = title
        self.shelf = shelf
        self.writers = writers
    }

    convenience init(title: String, shelf: Shelf) {
        self.init(title: title, shelf: shelf, writers: [])
    }
}

@Model class Shelf {
    @Attribute(.unique)
    var name: String
    @Relationship(inverse: \Novel.shelf)
    var novels: [Novel]

    init(name: String, novels: [Novel]) {
        self.name = name
        self.novels = novels
    }

    convenience init(name: String) {
        self.init(name: name, novels: [])
    }
}

@Suite struct ManyToManyRequiredToOneTests {
    @Test(arguments: StoreKind.all) func bothSidesOfAManyToManyReadBack(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, Writer.self, Novel.self, Shelf.self)
        let context = ModelContext(container)
        let fiction = Shelf(name: "Fiction")
        let pair = Novel(title: "Pair", shelf: fiction)
        let solo = Novel(title: "Solo", shelf: fiction)
        let ada = Writer(givenName: "Ada", familyName: "Reis")
        let rui = Writer(givenName: "Rui", familyName: "Sá")
        context.insert(pair)
        context.insert(solo)
        pair.writers = [ada, rui]
        solo.writers.append(ada)
        #expect(ada.novels.count == 2)
        try context.save()

        let reader = ModelContext(container)
        let writers = try reader.fetch(FetchDescriptor<Writer>(sortBy: [SortDescriptor(\.givenName)]))
        #expect(writers.map { $0.novels.map(\.title).sorted() } == [["Pair", "Solo"], ["Pair"]])
        let shelf = try #require(try reader.fetch(FetchDescriptor<Shelf>()).first)
        #expect(shelf.novels.map(\.title).sorted() == ["Pair", "Solo"])
        let byShelf = try reader.fetch(
            FetchDescriptor<Novel>(predicate: #Predicate { $0.shelf.name == "Fiction" && $0.writers.count > 1 }))
        #expect(byShelf.map(\.title) == ["Pair"])

        // The compound unique pair updates the stored writer instead of adding a second one.
        reader.insert(Writer(givenName: "Ada", familyName: "Reis"))
        try reader.save()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Writer>()) == 2)
    }

    @Test(arguments: StoreKind.all) func deletingAShelfItsNovelsNeedIsRefusedAndLosesNothing(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, Writer.self, Novel.self, Shelf.self)
        let context = ModelContext(container)
        let poetry = Shelf(name: "Poetry")
        context.insert(Novel(title: "Verses", shelf: poetry))
        try context.save()

        let editor = ModelContext(container)
        let shelf = try #require(try editor.fetch(FetchDescriptor<Shelf>()).first)
        editor.delete(shelf)
        #expect {
            try editor.save()
        } throws: { error in
            guard
                case .missingRequiredRelationship(let entity, let relationship) = (error as? SwiftDataError)?
                    .underlyingError
            else {
                return false
            }
            return entity == "Novel" && relationship == "shelf"
        }
        let reader = ModelContext(container)
        #expect(try reader.fetchCount(FetchDescriptor<Shelf>()) == 1)
        #expect(try reader.fetch(FetchDescriptor<Novel>()).first?.shelf.name == "Poetry")
    }
}
