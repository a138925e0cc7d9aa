import Foundation
import SwiftData
import Testing

/// Raw values none of which is empty, and no `CaseIterable`: the shape most app enums have.
enum PlaceholderStatus: String, Codable { case active, archived }
enum PlaceholderRank: Int, Codable { case gold = 7, silver = 9 }
enum PlaceholderSize: String, Codable, CaseIterable { case large, small }
enum PlaceholderMood: String, Codable { case calm, busy }
/// Synthesized `Codable` without raw values, one case with payloads of plain values.
enum PlaceholderShape: Codable { case circle(radius: Double), square(side: Double) }

struct PlaceholderAddress: Codable {
    struct Position: Codable {
        var latitude: Double
        var longitude: Double
    }
    var street: String
    var number: Int
    var position: Position
    var tags: [String]
    var identifier: UUID
    var site: URL
    var note: String?
}

@Model final class PlaceholderVenue {
    var name: String
    var status: PlaceholderStatus
    var rank: PlaceholderRank
    var size: PlaceholderSize
    var mood: PlaceholderMood = PlaceholderMood.busy
    var shape: PlaceholderShape
    var address: PlaceholderAddress

    init(name: String, address: PlaceholderAddress) {
        self.name = name
        self.status = .archived
        self.rank = .silver
        self.size = .small
        self.shape = .square(side: 2)
        self.address = address
    }
}

/// A model whose row is gone (`model(for:)` of a deleted identifier) reads placeholder values, whatever the types
/// of its properties, instead of stopping the process: an app checks `isDeleted` after the read, as SwiftData
/// code often does.
@Suite struct DeletedModelPlaceholderTests {
    @Test(arguments: StoreKind.all) func aModelWhoseRowIsGoneReadsPlaceholdersOfEveryType(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, PlaceholderVenue.self)
        let context = ModelContext(container)
        let address = PlaceholderAddress(
            street: "Rua Augusta", number: 10, position: .init(latitude: 38.7, longitude: -9.1), tags: ["old"],
            identifier: UUID(), site: URL(string: "https://example.com")!, note: "corner")
        let venue = PlaceholderVenue(name: "Tasca", address: address)
        context.insert(venue)
        try context.save()
        let identifier = venue.persistentModelID
        context.delete(venue)
        try context.save()

        let gone = try #require(ModelContext(container).model(for: identifier) as? PlaceholderVenue)
        #expect(gone.isDeleted)
        #expect(gone.name == "")
        #expect(gone.status == .active)
        #expect(gone.rank == .gold)
        #expect(gone.size == .large)
        #expect(gone.mood == .busy)
        if case .circle(let radius) = gone.shape { #expect(radius == 0) } else { Issue.record("\(gone.shape)") }
        #expect(gone.address.street == "" && gone.address.number == 0 && gone.address.tags.isEmpty)
        #expect(gone.address.position.latitude == 0 && gone.address.note == nil)
    }
}
