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

    @Test func modelsWithoutTheirOwnEqualityAreEqualOnlyToThemselves() {
        let bar = SeedBar(city: "Turin")
        #expect(bar == bar)
        #expect(bar != SeedBar(city: "Turin"))
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
