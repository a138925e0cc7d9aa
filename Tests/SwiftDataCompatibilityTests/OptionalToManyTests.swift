import Foundation
import SwiftData
import Testing

// Declared as CloudKit-ready SwiftData apps declare them: every relationship optional, to-manys defaulting to `[]`.
@Model final class OptionalTrip {
    var name: String = ""
    @Relationship(deleteRule: .cascade, inverse: \OptionalStop.trip) var stops: [OptionalStop]? = []
    @Relationship(inverse: \OptionalTag.trips) var tags: [OptionalTag]? = [OptionalTag]()
    init(name: String) { self.name = name }
}

@Model final class OptionalStop {
    var city: String = ""
    var trip: OptionalTrip?
    init(city: String) { self.city = city }
}

@Model final class OptionalTag {
    var label: String = ""
    var trips: [OptionalTrip]? = []
    init(label: String) { self.label = label }
}

@Suite struct OptionalToManyTests {
    private func makeContext(_ kind: StoreKind) throws -> ModelContext {
        let container = try freshContainer(kind, OptionalTrip.self, OptionalStop.self, OptionalTag.self)
        return ModelContext(container)
    }

    @Test(arguments: StoreKind.all) func readsAsAnEmptyArrayNeverNilAsInSwiftData(_ kind: StoreKind) throws {
        let trip = OptionalTrip(name: "Alps")
        #expect(trip.stops != nil)
        #expect(trip.stops?.isEmpty == true)
        trip.stops = nil
        #expect(trip.stops == [])
        let context = try makeContext(kind)
        context.insert(trip)
        try context.save()
        let fetched = try #require(try ModelContext(context.container).fetch(FetchDescriptor<OptionalTrip>()).first)
        #expect(fetched.stops == [])
        #expect(fetched.tags == [])
    }

    @Test(arguments: StoreKind.all) func appendingAndAssigningKeepTheInverseAndSave(_ kind: StoreKind) throws {
        let context = try makeContext(kind)
        let trip = OptionalTrip(name: "Coast")
        context.insert(trip)
        let nice = OptionalStop(city: "Nice")
        trip.stops?.append(nice)
        #expect(nice.trip === trip)
        let genoa = OptionalStop(city: "Genoa")
        genoa.trip = trip
        #expect(trip.stops?.map(\.city).sorted() == ["Genoa", "Nice"])
        let sea = OptionalTag(label: "sea")
        trip.tags = [sea]
        #expect(sea.trips?.first === trip)
        try context.save()

        let other = ModelContext(context.container)
        let fetched = try #require(try other.fetch(FetchDescriptor<OptionalTrip>()).first)
        #expect(fetched.stops?.map(\.city).sorted() == ["Genoa", "Nice"])
        #expect(fetched.tags?.map(\.label) == ["sea"])
        fetched.stops = nil
        try other.save()
        #expect(
            try ModelContext(context.container).fetch(FetchDescriptor<OptionalStop>()).allSatisfy { $0.trip == nil })
    }

    @Test(arguments: StoreKind.all) func predicatesOverAnOptionalToManyRunInTheStore(_ kind: StoreKind) throws {
        let context = try makeContext(kind)
        let empty = OptionalTrip(name: "Empty")
        let full = OptionalTrip(name: "Full")
        full.stops = [OptionalStop(city: "Oslo"), OptionalStop(city: "Bergen")]
        full.tags = [OptionalTag(label: "north")]
        context.insert(empty)
        context.insert(full)
        try context.save()

        func names(_ predicate: Predicate<OptionalTrip>) throws -> [String] {
            try context.fetch(FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\.name)])).map(\.name)
        }
        #expect(try names(#Predicate { $0.stops?.isEmpty == true }) == ["Empty"])
        #expect(try names(#Predicate { $0.stops?.isEmpty == false }) == ["Full"])
        #expect(try names(#Predicate { ($0.stops?.count ?? 0) > 1 }) == ["Full"])
        #expect(try names(#Predicate { $0.stops?.contains { $0.city == "Oslo" } == true }) == ["Full"])
        #expect(try names(#Predicate { $0.tags.flatMap { $0.contains { $0.label == "north" } } ?? false }) == ["Full"])
        #expect(try names(#Predicate { !($0.stops?.isEmpty ?? true) }) == ["Full"])
    }

    @Test(arguments: StoreKind.all) func prefetchingAndCascadeDeleteFollowTheRelationship(_ kind: StoreKind) throws {
        let context = try makeContext(kind)
        let trip = OptionalTrip(name: "Rail")
        trip.stops = [OptionalStop(city: "Lyon")]
        context.insert(trip)
        try context.save()

        let other = ModelContext(context.container)
        var descriptor = FetchDescriptor<OptionalTrip>()
        descriptor.relationshipKeyPathsForPrefetching = [\.stops]
        let fetched = try #require(try other.fetch(descriptor).first)
        #expect(fetched.stops?.map(\.city) == ["Lyon"])
        other.delete(fetched)
        try other.save()
        #expect(try other.fetchCount(FetchDescriptor<OptionalStop>()) == 0)
    }
}
