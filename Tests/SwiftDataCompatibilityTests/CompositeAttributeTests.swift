import Foundation
import SwiftData
import Testing

struct Coordinate: Codable, Hashable {
    var latitude: Double
    var longitude: Double
}

enum AddressKind: String, Codable {
    case home, work
}

enum Delivery: Codable, Hashable {
    case doorstep
    case locker(code: Int)
}

struct Address: Codable, Hashable {
    var street: String
    var city: String
    var postcode: String
    var floor: Int?
    var kind: AddressKind
    var location: Coordinate?
    var tags: [String]
    var movedIn: Date
    var isPrimary: Bool
    var delivery: Delivery?
    var summary: String { "\(street), \(city)" }
}

@Model final class Resident {
    var name: String
    var address: Address
    var previous: Address?
    var location: Coordinate?
    @Attribute(.codable) var billing: Address?
    var nicknames: [String] = []

    init(
        name: String, address: Address, previous: Address? = nil, location: Coordinate? = nil, nicknames: [String] = []
    ) {
        self.name = name
        self.nicknames = nicknames
        self.address = address
        self.previous = previous
        self.location = location
        self.billing = address
    }
}

@Model final class IndexedResident {
    #Index<IndexedResident>([\.address.city])
    var address: Address

    init(address: Address) { self.address = address }
}

@Model final class Letter {
    var title: String
    var sender: Resident?

    init(title: String, sender: Resident?) {
        self.title = title
        self.sender = sender
    }
}

/// Predicates and sorts reaching the fields of `Codable` struct attributes, as SwiftData apps write them.
@Suite struct CompositeAttributeTests {
    static let day: TimeInterval = 86_400
    static let lisbon = Address(
        street: "Pra\u{E7}a do Com\u{E9}rcio", city: "Lisbon", postcode: "1100-048", floor: 2, kind: .home,
        location: Coordinate(latitude: 38.71, longitude: -9.14), tags: ["old town", "tram"],
        movedIn: Date(timeIntervalSinceReferenceDate: 100 * day), isPrimary: true, delivery: .locker(code: 7))
    static let porto = Address(
        street: "Rua das Flores 9", city: "Porto", postcode: "4050-262", floor: nil, kind: .work,
        location: nil, tags: [], movedIn: Date(timeIntervalSinceReferenceDate: 300 * day), isPrimary: false,
        delivery: .doorstep)
    static let coimbra = Address(
        street: "Rua Larga", city: "Coimbra", postcode: "3000-000", floor: 0, kind: .home,
        location: Coordinate(latitude: 40.2, longitude: .nan), tags: ["university", "caf\u{E9}"],
        movedIn: Date(timeIntervalSinceReferenceDate: 200 * day), isPrimary: false, delivery: nil)

    private func context(_ kind: StoreKind) throws -> ModelContext {
        let context = ModelContext(try freshContainer(kind, Resident.self))
        context.insert(
            Resident(name: "ana", address: Self.lisbon, previous: Self.porto, location: Self.lisbon.location))
        context.insert(Resident(name: "bruno", address: Self.porto, nicknames: ["Bru", "B"]))
        context.insert(
            Resident(
                name: "carla", address: Self.coimbra, previous: Self.lisbon,
                location: Coordinate(latitude: 40.2, longitude: -8.4)))
        try context.save()
        return context
    }

    private func names(_ predicate: Predicate<Resident>, in context: ModelContext) throws -> [String] {
        var descriptor = FetchDescriptor<Resident>(predicate: predicate, sortBy: [SortDescriptor(\.name)])
        descriptor.includePendingChanges = false
        return try context.fetch(descriptor).map(\.name)
    }

    private func names(sortedBy sort: [SortDescriptor<Resident>], in context: ModelContext) throws -> [String] {
        try context.fetch(FetchDescriptor<Resident>(sortBy: sort + [SortDescriptor(\.name)])).map(\.name)
    }

    @Test(arguments: StoreKind.all) func filtersByAFieldInTheStore(_ kind: StoreKind) throws {
        let context = try context(kind)
        #expect(try names(#Predicate { $0.address.city == "Lisbon" }, in: context) == ["ana"])
        #expect(try names(#Predicate { $0.address.city != "Lisbon" }, in: context) == ["bruno", "carla"])
        #expect(try names(#Predicate { $0.address.postcode > "2" }, in: context) == ["bruno", "carla"])
        #expect(try names(#Predicate { $0.address.city.contains("or") }, in: context) == ["bruno"])
        #expect(
            try names(#Predicate { $0.address.city.starts(with: "Co") && $0.address.isPrimary == false }, in: context)
                == ["carla"])
        #expect(try names(#Predicate { $0.address.isPrimary }, in: context) == ["ana"])
        // Foundation's text semantics on non-ASCII text, as for a String attribute.
        #expect(
            try names(#Predicate { $0.address.street.localizedStandardContains("comercio") }, in: context) == ["ana"])
        #expect(
            try names(#Predicate { $0.address.street == "Prac\u{327}a do Come\u{301}rcio" }, in: context) == ["ana"])
        let count = try context.fetchCount(
            FetchDescriptor<Resident>(predicate: #Predicate { $0.address.city == "Porto" }))
        #expect(count == 1)
    }

    @Test(arguments: StoreKind.all) func comparesNumbersAndDatesAsTopLevelAttributes(_ kind: StoreKind) throws {
        let context = try context(kind)
        let cutoff = Date(timeIntervalSinceReferenceDate: 150 * Self.day)
        #expect(try names(#Predicate { $0.address.movedIn > cutoff }, in: context) == ["bruno", "carla"])
        #expect(try names(#Predicate { $0.address.floor ?? -1 >= 0 }, in: context) == ["ana", "carla"])
        #expect(try names(#Predicate { $0.address.floor == nil }, in: context) == ["bruno"])
        #expect(try names(#Predicate { $0.address.location?.latitude ?? 0 > 39 }, in: context) == ["carla"])
        // NaN equals nothing and is unordered, as for a Double attribute.
        #expect(try names(#Predicate { $0.address.location?.longitude ?? 0 < 0 }, in: context) == ["ana"])
        let nan = Double.nan
        #expect(try names(#Predicate { $0.address.location?.longitude == nan }, in: context) == [])
    }

    @Test(arguments: StoreKind.all) func readsThroughOptionals(_ kind: StoreKind) throws {
        let context = try context(kind)
        #expect(try names(#Predicate { $0.previous?.city == "Porto" }, in: context) == ["ana"])
        #expect(try names(#Predicate { $0.previous?.city == nil }, in: context) == ["bruno"])
        #expect(try names(#Predicate { $0.location?.longitude ?? 0 < -9 }, in: context) == ["ana"])
        #expect(try names(#Predicate { $0.previous?.location?.latitude == 38.71 }, in: context) == ["carla"])
        let work = AddressKind.work
        #expect(try names(#Predicate { $0.previous?.kind == work }, in: context) == ["ana"])
    }

    @Test(arguments: StoreKind.all) func comparesEnumsInside(_ kind: StoreKind) throws {
        let context = try context(kind)
        let work = AddressKind.work
        #expect(try names(#Predicate { $0.address.kind == work }, in: context) == ["bruno"])
        #expect(try names(#Predicate { $0.address.kind.rawValue == "home" }, in: context) == ["ana", "carla"])
        let locker = Delivery.locker(code: 7)
        #expect(try names(#Predicate { $0.address.delivery == locker }, in: context) == ["ana"])
        let doorstep = Delivery.doorstep
        #expect(try names(#Predicate { $0.address.delivery == doorstep }, in: context) == ["bruno"])
        #expect(try names(#Predicate { $0.address.delivery == nil }, in: context) == ["carla"])
        let nearby = Coordinate(latitude: 40.2, longitude: -8.4)
        #expect(try names(#Predicate { $0.location == nearby }, in: context) == ["carla"])
    }

    @Test(arguments: StoreKind.all) func searchesArrays(_ kind: StoreKind) throws {
        let context = try context(kind)
        #expect(try names(#Predicate { $0.address.tags.contains("tram") }, in: context) == ["ana"])
        // Swift's `==`: the decomposed spelling finds the precomposed element.
        #expect(try names(#Predicate { $0.address.tags.contains("cafe\u{301}") }, in: context) == ["carla"])
        #expect(try names(#Predicate { $0.address.tags.isEmpty }, in: context) == ["bruno"])
        #expect(try names(#Predicate { $0.address.tags.count >= 1 }, in: context) == ["ana", "carla"])
        #expect(try names(#Predicate { $0.previous?.tags.contains("tram") == true }, in: context) == ["carla"])
        #expect(try names(#Predicate { $0.nicknames.contains("Bru") }, in: context) == ["bruno"])
        #expect(try names(#Predicate { $0.nicknames.isEmpty }, in: context) == ["ana", "carla"])
        #expect(try names(#Predicate { $0.nicknames.count == 2 }, in: context) == ["bruno"])
    }

    @Test(arguments: StoreKind.all) func sortsByAField(_ kind: StoreKind) throws {
        let context = try context(kind)
        #expect(
            try names(sortedBy: [SortDescriptor(\Resident.address.postcode)], in: context) == ["ana", "carla", "bruno"])
        #expect(
            try names(sortedBy: [SortDescriptor(\Resident.address.movedIn, order: .reverse)], in: context) == [
                "bruno", "carla", "ana",
            ])
        // nil sorts first, as in Swift.
        #expect(
            try names(sortedBy: [SortDescriptor(\Resident.address.floor)], in: context) == ["bruno", "carla", "ana"])
        #expect(
            try names(sortedBy: [SortDescriptor(\Resident.previous?.city)], in: context) == ["bruno", "carla", "ana"])
        #expect(
            try names(sortedBy: [SortDescriptor(\Resident.address.location?.latitude, order: .reverse)], in: context)
                == ["carla", "ana", "bruno"])
        var limited = FetchDescriptor<Resident>(sortBy: [SortDescriptor(\.address.city)])
        limited.fetchLimit = 1
        #expect(try context.fetch(limited).map(\.name) == ["carla"])
    }

    @Test(arguments: StoreKind.all) func pendingChangesAreJudgedAsTheStoreJudgesRows(_ kind: StoreKind) throws {
        let context = try context(kind)
        var moved = Self.porto
        moved.city = "Lisbon"
        context.insert(Resident(name: "diana", address: moved))
        let fetched = try context.fetch(
            FetchDescriptor<Resident>(
                predicate: #Predicate { $0.address.city == "Lisbon" }, sortBy: [SortDescriptor(\.address.movedIn)]))
        #expect(fetched.map(\.name) == ["ana", "diana"])
        let locker = Delivery.locker(code: 7)
        let lockers = try context.fetch(
            FetchDescriptor<Resident>(predicate: #Predicate { $0.address.delivery == locker }))
        #expect(lockers.map(\.name) == ["ana"])
        let tagged = try context.fetch(
            FetchDescriptor<Resident>(
                predicate: #Predicate { $0.address.tags.isEmpty || $0.nicknames.contains("Bru") },
                sortBy: [SortDescriptor(\.name)]))
        #expect(tagged.map(\.name) == ["bruno", "diana"])
    }

    @Test(arguments: StoreKind.all) func refusesWhatIsNotAStoredField(_ kind: StoreKind) throws {
        let context = try context(kind)
        #expect {
            try names(#Predicate { $0.address.summary == "Rua Larga, Coimbra" }, in: context)
        } throws: { error in
            guard case .unsupportedPredicate(_, let reason)? = (error as? SwiftDataError)?.underlyingError else {
                return false
            }
            return reason.contains("Resident.address") && reason.contains("not a stored field")
        }
        #expect {
            try names(#Predicate { $0.billing?.city == "Lisbon" }, in: context)
        } throws: { error in
            guard case .unsupportedPredicate(_, let reason)? = (error as? SwiftDataError)?.underlyingError else {
                return false
            }
            return reason.contains("Resident.billing") && reason.contains("@Attribute(.codable)")
        }
        #expect {
            try names(sortedBy: [SortDescriptor(\Resident.address.summary)], in: context)
        } throws: { error in
            guard case .unsupportedSortDescriptor(_, let reason)? = (error as? SwiftDataError)?.underlyingError else {
                return false
            }
            return reason.contains("Resident.address")
        }
    }

    @Test(arguments: StoreKind.all) func reachesFieldsThroughARelationship(_ kind: StoreKind) throws {
        let context = ModelContext(try freshContainer(kind, Letter.self))
        context.insert(Letter(title: "invoice", sender: Resident(name: "bruno", address: Self.porto)))
        context.insert(Letter(title: "postcard", sender: Resident(name: "ana", address: Self.lisbon)))
        context.insert(Letter(title: "flyer", sender: nil))
        try context.save()
        let fromPorto = try context.fetch(
            FetchDescriptor<Letter>(predicate: #Predicate { $0.sender?.address.city == "Porto" }))
        #expect(fromPorto.map(\.title) == ["invoice"])
        let byCity = try context.fetch(FetchDescriptor<Letter>(sortBy: [SortDescriptor(\Letter.sender?.address.city)]))
        #expect(byCity.map(\.title) == ["flyer", "postcard", "invoice"])
    }

    @Test(arguments: StoreKind.all) func anIndexOnAFieldIsRefusedNamingTheModel(_ kind: StoreKind) throws {
        #expect {
            try freshContainer(kind, IndexedResident.self)
        } throws: { error in
            guard case .invalidSchema(let entity, let reason)? = (error as? SwiftDataError)?.underlyingError else {
                return false
            }
            return entity == "IndexedResident" && reason.contains("address.city")
        }
    }

    @Test func codableAttributesSayWhichAreOpaque() throws {
        let entity = try #require(Schema([Resident.self]).entitiesByName["Resident"])
        let attributes = Dictionary(uniqueKeysWithValues: entity.attributes.map { ($0.name, $0) })
        #expect(attributes["billing"]?.isCodable == true)
        #expect(attributes["address"]?.isCodable == false)
    }
}
