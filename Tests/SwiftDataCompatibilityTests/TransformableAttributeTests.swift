import Foundation
import SwiftData
import Testing

/// A colour that isn't `Codable`, as the platform colour classes Core Data-era apps store aren't.
final class Swatch: NSObject, @unchecked Sendable {
    let red: Double
    let green: Double
    let blue: Double

    init(red: Double, green: Double, blue: Double) {
        self.red = red
        self.green = green
        self.blue = blue
    }
}

/// Turns a swatch into data and back, written as Core Data-era transformers are (in an autorelease pool, too).
final class SwatchTransformer: ValueTransformer {
    static let name = NSValueTransformerName(rawValue: String(describing: SwatchTransformer.self))

    override class func transformedValueClass() -> AnyClass { NSData.self }
    override class func allowsReverseTransformation() -> Bool { true }

    override func transformedValue(_ value: Any?) -> Any? {
        autoreleasepool {
            guard let swatch = value as? Swatch else { return nil }
            return Data("\(swatch.red),\(swatch.green),\(swatch.blue)".utf8)
        }
    }

    override func reverseTransformedValue(_ value: Any?) -> Any? {
        guard let data = value as? Data else { return nil }
        let parts = String(decoding: data, as: UTF8.self).split(separator: ",").compactMap { Double($0) }
        guard parts.count == 3 else { return nil }
        return Swatch(red: parts[0], green: parts[1], blue: parts[2])
    }

    static func register() {
        ValueTransformer.setValueTransformer(SwatchTransformer(), forName: name)
    }
}

/// An unarchiving transformer for arrays of strings, as apps write them for `NSSecureCoding` values.
final class TagListTransformer: NSSecureUnarchiveFromDataTransformer {
    override class var allowedTopLevelClasses: [AnyClass] { [NSArray.self, NSString.self] }
}

@Model final class Palette {
    var name: String
    @Attribute(.transformable(by: SwatchTransformer.self)) var primary: Swatch
    @Attribute(.transformable(by: "SwatchTransformer")) var accent: Swatch?
    @Attribute(.transformable(by: TagListTransformer.self)) var tags: NSArray?

    init(name: String, primary: Swatch) {
        self.name = name
        self.primary = primary
    }
}

/// `@Attribute(.transformable(by:))`, both overloads, with `ValueTransformer` subclasses.
@Suite struct TransformableAttributeTests {
    @Test(arguments: StoreKind.all) func valuesAreStoredThroughTheirTransformers(_ kind: StoreKind) throws {
        SwatchTransformer.register()
        let container = try freshContainer(kind, Palette.self)
        let context = ModelContext(container)
        let palette = Palette(name: "Sea", primary: Swatch(red: 0.1, green: 0.4, blue: 0.8))
        palette.accent = Swatch(red: 1, green: 0.5, blue: 0)
        palette.tags = NSArray(array: [NSString(string: "cool"), NSString(string: "calm")])
        context.insert(palette)
        context.insert(Palette(name: "Plain", primary: Swatch(red: 0, green: 0, blue: 0)))
        try context.save()

        let reader = ModelContext(container)
        let stored = try #require(
            try reader.fetch(FetchDescriptor<Palette>(predicate: #Predicate { $0.name == "Sea" })).first)
        #expect(stored.primary.blue == 0.8)
        #expect(stored.accent?.green == 0.5)
        #expect(stored.tags?.compactMap { ($0 as? NSString).map(String.init) } == ["cool", "calm"])
        let plain = try #require(
            try reader.fetch(FetchDescriptor<Palette>(predicate: #Predicate { $0.name == "Plain" })).first)
        #expect(plain.accent == nil)
        #expect(plain.tags == nil)

        let attributes = Dictionary(
            uniqueKeysWithValues: try #require(container.schema.entitiesByName["Palette"]).attributes.map {
                ($0.name, $0)
            })
        #expect(attributes["primary"]?.isTransformable == true)
        #expect(attributes["accent"]?.isTransformable == true)
        #expect(attributes["name"]?.isTransformable == false)
    }

    @Test func foundationsTransformersAreRegistered() throws {
        let negate = try #require(ValueTransformer(forName: .negateBooleanTransformerName))
        #expect(negate.transformedValue(true) as? NSNumber == NSNumber(value: false))
        let isNil = try #require(ValueTransformer(forName: .isNilTransformerName))
        #expect(isNil.transformedValue(nil) as? NSNumber == NSNumber(value: true))
        #expect(ValueTransformer(forName: NSValueTransformerName("NoSuchTransformer")) == nil)
        #expect(ValueTransformer.valueTransformerNames().contains(.secureUnarchiveFromDataTransformerName))
    }

    @Test(arguments: StoreKind.all) func aTransformerThatIsNotRegisteredFailsTheSaveNamingIt(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, UnregisteredPalette.self)
        let context = ModelContext(container)
        context.insert(UnregisteredPalette(swatch: Swatch(red: 1, green: 1, blue: 1)))
        #expect {
            try context.save()
        } throws: { error in
            guard
                case .unrepresentableValue(let entity, let property, let reason) = (error as? SwiftDataError)?
                    .underlyingError
            else {
                return false
            }
            return entity == "UnregisteredPalette" && property == "swatch" && reason.contains("NotRegistered")
        }
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<UnregisteredPalette>()) == 0)
    }
}

@Model final class UnregisteredPalette {
    @Attribute(.transformable(by: "NotRegistered")) var swatch: Swatch
    init(swatch: Swatch) { self.swatch = swatch }
}
