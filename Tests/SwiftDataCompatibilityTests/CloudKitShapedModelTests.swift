import Foundation
import SwiftData
import Testing

// Models in the shape a public card-tracking app gives them: CloudKit-ready (every property has a default or is
// optional), to-ones with no annotation whose inverses the parents declare, a model conforming to
// `CustomDebugStringConvertible` through a computed property, an optional enum attribute with a default, and
// image data kept with `.externalStorage`.

enum AddresseeGroup: String, Codable, CaseIterable, Identifiable {
    case friends, relatives, colleagues
    var id: String { rawValue }
}

@Model final class MailedCard: CustomDebugStringConvertible {
    var sentOn: Date = Date()
    var occasion: Occasion?
    var design: CardDesign?
    var addressee: Addressee?

    var debugDescription: String { "\(occasion?.title ?? "-") to \(addressee?.displayName ?? "-")" }

    init(sentOn: Date, occasion: Occasion, design: CardDesign, addressee: Addressee) {
        self.sentOn = sentOn
        self.occasion = occasion
        self.design = design
        self.addressee = addressee
    }
}

@Model final class Occasion {
    var title: String = ""
    @Relationship(deleteRule: .cascade, inverse: \MailedCard.occasion) var mailed: [MailedCard]? = [MailedCard]()
    @Relationship(deleteRule: .cascade, inverse: \CardDesign.occasion) var designs: [CardDesign]? = []

    init(title: String) { self.title = title }

    func mailedCount() -> Int { mailed?.count ?? 0 }
}

@Model final class CardDesign {
    var label: String = ""
    @Attribute(.externalStorage) var artwork: Data?
    var occasion: Occasion?
    @Relationship(deleteRule: .cascade, inverse: \MailedCard.design) var uses: [MailedCard]?

    init(label: String, artwork: Data?, occasion: Occasion? = nil) {
        self.label = label
        self.artwork = artwork ?? Data([0xFF, 0xD8])
        self.occasion = occasion
        self.uses = []
    }
}

@Model final class Addressee {
    var givenName: String = ""
    var familyName: String = ""
    var town: String = ""
    var group: AddresseeGroup? = AddresseeGroup.friends
    @Relationship(deleteRule: .cascade, inverse: \MailedCard.addressee) var received: [MailedCard]? = [MailedCard]()

    var displayName: String { "\(givenName) \(familyName)" }

    init(givenName: String, familyName: String, town: String, group: AddresseeGroup) {
        self.givenName = givenName
        self.familyName = familyName
        self.town = town
        self.group = group
    }
}

@Suite struct CloudKitShapedModelTests {
    private func seeded(_ kind: StoreKind) throws -> ModelContainer {
        let container = try freshContainer(kind, MailedCard.self, Occasion.self, CardDesign.self, Addressee.self)
        let context = ModelContext(container)
        let birthday = Occasion(title: "Birthday")
        context.insert(birthday)
        context.insert(Occasion(title: "Wedding"))
        let balloons = CardDesign(label: "Balloons", artwork: nil, occasion: birthday)
        let ines = Addressee(givenName: "Inês", familyName: "Moura", town: "Braga", group: .relatives)
        let tiago = Addressee(givenName: "Tiago", familyName: "Lopes", town: "Faro", group: .colleagues)
        context.insert(MailedCard(sentOn: .now, occasion: birthday, design: balloons, addressee: ines))
        context.insert(MailedCard(sentOn: .now, occasion: birthday, design: balloons, addressee: tiago))
        try context.save()
        return container
    }

    @Test(arguments: StoreKind.all) func searchesAndIdentifierFiltersRunAsAppsWriteThem(_ kind: StoreKind) throws {
        let context = ModelContext(try seeded(kind))
        func addressees(matching searchText: String) throws -> [String] {
            let descriptor = FetchDescriptor<Addressee>(
                predicate: #Predicate {
                    if searchText.isEmpty {
                        return true
                    } else {
                        return $0.familyName.localizedStandardContains(searchText)
                            || $0.givenName.localizedStandardContains(searchText)
                    }
                }, sortBy: [SortDescriptor(\Addressee.familyName), SortDescriptor(\Addressee.givenName)])
            return try context.fetch(descriptor).map(\.displayName)
        }
        #expect(try addressees(matching: "") == ["Tiago Lopes", "Inês Moura"])
        #expect(try addressees(matching: "mou") == ["Inês Moura"])

        let birthday = try #require(
            try context.fetch(FetchDescriptor<Occasion>(predicate: #Predicate { $0.title == "Birthday" })).first)
        let occasionID = birthday.persistentModelID
        let mailed = try context.fetch(
            FetchDescriptor<MailedCard>(predicate: #Predicate { $0.occasion?.persistentModelID == occasionID }))
        #expect(mailed.count == 2)
        #expect(birthday.mailedCount() == 2)
        #expect(birthday.designs?.map(\.label) == ["Balloons"])
        #expect(mailed.map(\.debugDescription).sorted() == ["Birthday to Inês Moura", "Birthday to Tiago Lopes"])
        let ines = try #require(try context.fetch(FetchDescriptor<Addressee>()).first { $0.givenName == "Inês" })
        #expect(ines.group == .relatives)
        #expect(ines.received?.count == 1)
    }

    @Test(arguments: StoreKind.all) func deletingAnOccasionCascadesThroughItsDesigns(_ kind: StoreKind) throws {
        let container = try seeded(kind)
        let context = ModelContext(container)
        let birthday = try #require(
            try context.fetch(FetchDescriptor<Occasion>(predicate: #Predicate { $0.title == "Birthday" })).first)
        context.delete(birthday)
        try context.save()
        let reader = ModelContext(container)
        #expect(try reader.fetchCount(FetchDescriptor<MailedCard>()) == 0)
        #expect(try reader.fetchCount(FetchDescriptor<CardDesign>()) == 0)
        let addressees = try reader.fetch(FetchDescriptor<Addressee>())
        #expect(addressees.count == 2)
        #expect(addressees.allSatisfy { $0.received?.isEmpty == true && $0.group != nil })
    }
}
