import Foundation
import SwiftData
import Testing

// Declared as apps that seed their store from bundled JSON declare them: the models are `Codable` with their own
// coding, and compare and hash by a natural key.
@Model final class SeedCocktail: Codable {
    var name: String
    var strength: Int
    var bar: SeedBar?

    init(name: String, strength: Int) {
        self.name = name
        self.strength = strength
    }

    enum CodingKeys: String, CodingKey { case name, strength }

    required init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        strength = try container.decode(Int.self, forKey: .strength)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(strength, forKey: .strength)
    }

    static func == (lhs: SeedCocktail, rhs: SeedCocktail) -> Bool { lhs.name == rhs.name }

    func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

@Model final class SeedBar: Codable {
    var city: String = ""
    @Relationship(deleteRule: .cascade, inverse: \SeedCocktail.bar) var cocktails: [SeedCocktail]? = []
    var favourite: SeedCocktail?
    var regulars: [SeedCocktail] = []

    init(city: String) { self.city = city }

    enum CodingKeys: String, CodingKey { case city }

    required init(from decoder: any Decoder) throws {
        city = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .city)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(city, forKey: .city)
    }
}

// The `Sendable` that apps written before SwiftData's models were `Sendable` state themselves, in an extension or
// in the class's own clause: the macro adds no second one (a warning, which fails the build's zero-warning check).
@Model final class SeedGlass {
    var shape: String
    init(shape: String) { self.shape = shape }
}

extension SeedGlass: @unchecked Sendable {}

@Model final class SeedCoaster: @unchecked Sendable, Hashable {
    var colour: String
    init(colour: String) { self.colour = colour }
}

// Equality by a natural key stated in an extension that also states the conformance.
@Model final class SeedMenu {
    var title: String
    init(title: String) { self.title = title }
}

extension SeedMenu: Equatable {
    static func == (lhs: SeedMenu, rhs: SeedMenu) -> Bool { lhs.title == rhs.title }
}

// Equality and hashing in a plain extension, as apps add them after the class (no conformance stated).
@Model final class SeedRecipe {
    var slug: String
    var servings = 2
    init(slug: String) { self.slug = slug }
}

extension SeedRecipe {
    static func == (lhs: SeedRecipe, rhs: SeedRecipe) -> Bool { lhs.slug == rhs.slug }
    func hash(into hasher: inout Hasher) { hasher.combine(slug) }
}

// The same in an extension stating only `Hashable`, and in a class that isn't final.
@Model class SeedShelf {
    var label: String
    init(label: String) { self.label = label }
}

extension SeedShelf: Hashable {
    public static func == (lhs: SeedShelf, rhs: SeedShelf) -> Bool { lhs.label == rhs.label }
    public func hash(into hasher: inout Hasher) { hasher.combine(label) }
}

// An `==` that compares other models of the class (a list of steps), met first in a generic comparison.
@Model final class SeedStep {
    var title: String
    var substeps: [SeedStep] = []
    init(title: String) { self.title = title }
}

extension SeedStep {
    static func == (lhs: SeedStep, rhs: SeedStep) -> Bool {
        lhs.title == rhs.title && lhs.substeps == rhs.substeps
    }
}

// Classes first compared from many tasks at once: one with its own `==`, one without.
@Model final class SeedTicket {
    var number: Int
    init(number: Int) { self.number = number }
}

extension SeedTicket {
    static func == (lhs: SeedTicket, rhs: SeedTicket) -> Bool { lhs.number == rhs.number }
}

@Model final class SeedStub {
    var number: Int
    init(number: Int) { self.number = number }
}

@Suite struct OwnConformanceTests {
    @Test func equalityStatedWithItsConformanceInAnExtensionIsUsed() {
        #expect(SeedMenu(title: "Lunch") == SeedMenu(title: "Lunch"))
        func genericallyEqual<T: Equatable>(_ lhs: T, _ rhs: T) -> Bool { lhs == rhs }
        #expect(genericallyEqual(SeedMenu(title: "Lunch"), SeedMenu(title: "Lunch")))
        #expect(SeedMenu(title: "Lunch") != SeedMenu(title: "Dinner"))
    }

    @Test func modelsStatingTheirOwnSendableKeepIdentityEquality() async {
        let glass = SeedGlass(shape: "coupe")
        #expect(await Task.detached { glass.shape }.value == "coupe")
        #expect(glass != SeedGlass(shape: "coupe"))
        let coaster = SeedCoaster(colour: "red")
        #expect(coaster == coaster)
        #expect(coaster != SeedCoaster(colour: "red"))
    }

    @Test func theModelsOwnEqualityAndHashingAreUsed() {
        let first = SeedCocktail(name: "Negroni", strength: 24)
        let second = SeedCocktail(name: "Negroni", strength: 20)
        #expect(first == second)
        #expect(first != SeedCocktail(name: "Spritz", strength: 11))
        #expect(Set([first, second]).count == 1)
        func genericallyEqual<T: Equatable>(_ lhs: T, _ rhs: T) -> Bool { lhs == rhs }
        #expect(genericallyEqual(first, second))
    }

    @Test func anOwnEqualityComparingModelsOfItsClassIsUsedFromTheFirstComparison() {
        func genericallyEqual<T: Equatable>(_ lhs: T, _ rhs: T) -> Bool { lhs == rhs }
        let first = SeedStep(title: "Boil")
        first.substeps = [SeedStep(title: "Salt")]
        let second = SeedStep(title: "Boil")
        second.substeps = [SeedStep(title: "Salt")]
        #expect(genericallyEqual(first, second))
        second.substeps[0].title = "Oil"
        #expect(!genericallyEqual(first, second))
        #expect(first != second)
    }

    @Test func modelsFirstComparedOnManyThreadsAtOnceCompareAsDeclared() async {
        let tickets = (0..<64).map { SeedTicket(number: $0 % 2) }
        let stubs = (0..<64).map { SeedStub(number: $0 % 2) }
        let results = await withTaskGroup(of: (Bool, Bool).self) { group in
            for index in 0..<64 {
                group.addTask {
                    func genericallyEqual<T: Equatable>(_ lhs: T, _ rhs: T) -> Bool { lhs == rhs }
                    let other = (index + 2) % 64
                    return (
                        genericallyEqual(tickets[index], tickets[other]),
                        genericallyEqual(stubs[index], stubs[other])
                    )
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 64)
        #expect(results.allSatisfy { $0.0 && !$0.1 })
    }

    @Test func equalityAndHashingInAPlainExtensionAreUsed() {
        let first = SeedRecipe(slug: "carbonara")
        let second = SeedRecipe(slug: "carbonara")
        second.servings = 4
        #expect(first == second)
        #expect(first != SeedRecipe(slug: "amatriciana"))
        #expect(Set([first, second]).count == 1)
        func genericallyEqual<T: Equatable>(_ lhs: T, _ rhs: T) -> Bool { lhs == rhs }
        #expect(genericallyEqual(first, second))
        #expect(!genericallyEqual(first, SeedRecipe(slug: "gricia")))
        #expect([first].contains(second))
    }

    @Test func equalityStatedWithOnlyHashableIsUsed() {
        let first = SeedShelf(label: "Pantry")
        #expect(first == SeedShelf(label: "Pantry"))
        #expect(first != SeedShelf(label: "Fridge"))
        #expect(Set([first, SeedShelf(label: "Pantry"), SeedShelf(label: "Fridge")]).count == 2)
        func genericallyEqual<T: Equatable>(_ lhs: T, _ rhs: T) -> Bool { lhs == rhs }
        #expect(genericallyEqual(first, SeedShelf(label: "Pantry")))
    }

    @Test(arguments: StoreKind.all) func modelsWithTheirOwnEqualityAreStoredAndFetchedAsThemselves(
        _ kind: StoreKind
    ) throws {
        let container = try freshContainer(kind, SeedRecipe.self)
        let context = ModelContext(container)
        let recipe = SeedRecipe(slug: "carbonara")
        context.insert(recipe)
        context.insert(SeedRecipe(slug: "carbonara"))
        try context.save()
        let fetched = try ModelContext(container).fetch(FetchDescriptor<SeedRecipe>())
        #expect(fetched.count == 2)
        #expect(fetched.allSatisfy { $0 == recipe })
        #expect(Set(fetched.map(\.persistentModelID)).count == 2)
    }

    @Test func modelsWithoutTheirOwnEqualityAreEqualOnlyToThemselves() {
        let bar = SeedBar(city: "Turin")
        #expect(bar == bar)
        #expect(bar != SeedBar(city: "Turin"))
        func genericallyEqual<T: Equatable>(_ lhs: T, _ rhs: T) -> Bool { lhs == rhs }
        #expect(genericallyEqual(bar, bar))
        #expect(!genericallyEqual(bar, SeedBar(city: "Turin")))
        #expect(Set([bar, bar, SeedBar(city: "Turin")]).count == 2)
    }

    @Test(arguments: StoreKind.all) func codableModelsDecodeAndAreStoredAsRelationships(_ kind: StoreKind) throws {
        let json = Data(#"[{"name": "Negroni", "strength": 24}, {"name": "Americano", "strength": 11}]"#.utf8)
        let cocktails = try JSONDecoder().decode([SeedCocktail].self, from: json)
        let bar = try JSONDecoder().decode(SeedBar.self, from: Data(#"{"city": "Milan"}"#.utf8))
        let container = try freshContainer(kind, SeedBar.self, SeedCocktail.self)
        let context = ModelContext(container)
        context.insert(bar)
        bar.cocktails = cocktails
        bar.favourite = cocktails[0]
        bar.regulars = [cocktails[1]]
        #expect(cocktails[0].bar === bar)
        try context.save()

        let fetched = try #require(try ModelContext(container).fetch(FetchDescriptor<SeedBar>()).first)
        #expect(fetched.city == "Milan")
        #expect(fetched.cocktails?.map(\.name).sorted() == ["Americano", "Negroni"])
        #expect(fetched.favourite?.strength == 24)
        #expect(fetched.regulars.map(\.name) == ["Americano"])
        let encoded = try JSONEncoder().encode(fetched.favourite)
        #expect(String(decoding: encoded, as: UTF8.self).contains("Negroni"))
    }
}
