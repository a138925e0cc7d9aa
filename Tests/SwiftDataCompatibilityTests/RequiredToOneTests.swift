import Foundation
import SwiftData
import Testing

@Model final class RequiredGenre {
    var name: String
    @Relationship(inverse: \RequiredSong.genre) var songs: [RequiredSong] = []
    init(name: String) { self.name = name }
}

@Model final class RequiredSong {
    var title: String
    var genre: RequiredGenre
    init(title: String, genre: RequiredGenre) {
        self.title = title
        self.genre = genre
    }
}

/// A non-optional to-one (`var genre: Genre`), which SwiftData accepts: a required foreign key.
@Suite struct RequiredToOneTests {
    private func makeContainer(_ kind: StoreKind) throws -> ModelContainer {
        try freshContainer(kind, RequiredSong.self, RequiredGenre.self)
    }

    @Test(arguments: StoreKind.all) func savesAndReadsBackWithItsInverse(_ kind: StoreKind) throws {
        let container = try makeContainer(kind)
        let context = ModelContext(container)
        let jazz = RequiredGenre(name: "Jazz")
        let song = RequiredSong(title: "So What", genre: jazz)
        context.insert(song)
        #expect(jazz.songs.map(\.title) == ["So What"])
        let blues = RequiredGenre(name: "Blues")
        song.genre = blues
        #expect(jazz.songs.isEmpty)
        #expect(blues.songs.first === song)
        try context.save()

        let reader = ModelContext(container)
        let fetched = try #require(try reader.fetch(FetchDescriptor<RequiredSong>()).first)
        #expect(fetched.genre.name == "Blues")
        #expect(fetched.genre.songs.first === fetched)
        let byGenre = try ModelContext(container).fetch(
            FetchDescriptor<RequiredSong>(
                predicate: #Predicate {
                    $0.genre.name == "Blues"
                }))
        #expect(byGenre.map(\.title) == ["So What"])
    }

    @Test(arguments: StoreKind.all) func savingWithItUnsetThrowsAValidationErrorNamingModelAndProperty(
        _ kind: StoreKind
    ) throws {
        let context = ModelContext(try makeContainer(kind))
        let jazz = RequiredGenre(name: "Jazz")
        let song = RequiredSong(title: "Blue in Green", genre: jazz)
        context.insert(song)
        try context.save()
        // Taking the song out of the genre's songs leaves its required genre empty.
        jazz.songs.removeAll()
        #expect(song.genre.isDeleted)
        let error = #expect(throws: SwiftDataError.self) { try context.save() }?.underlyingError
        #expect(error == .missingRequiredRelationship(entity: "RequiredSong", relationship: "genre"))
        #expect(error?.description.contains("RequiredSong.genre") == true)
        song.genre = jazz
        try context.save()
    }

    @Test(arguments: StoreKind.all) func deletingTheRelatedModelFailsTheSaveInsteadOfLeavingARowWithoutIt(
        _ kind: StoreKind
    ) throws {
        let container = try makeContainer(kind)
        let context = ModelContext(container)
        context.insert(RequiredSong(title: "Naima", genre: RequiredGenre(name: "Jazz")))
        try context.save()

        let other = ModelContext(container)
        let genre = try #require(try other.fetch(FetchDescriptor<RequiredGenre>()).first)
        other.delete(genre)
        #expect {
            try other.save()
        } throws: {
            ($0 as? SwiftDataError)?.underlyingError
                == StrataError.missingRequiredRelationship(entity: "RequiredSong", relationship: "genre")
        }
        #expect(try ModelContext(container).fetch(FetchDescriptor<RequiredSong>()).first?.genre.name == "Jazz")
    }
}
