import SwiftSyntaxMacroExpansion
import Testing

@testable import StrataMacros

/// The macros as the compiler sees them on a subclass of a `@Model` class: the class already conforms to
/// `PersistentModel`, `Observable` and `Sendable` through its superclass, so no role is told to add them.
private let subclassMacros: [String: MacroSpec] =
    strataMacros
    .filter { modelMacrosOnly.contains($0.key) || $0.key == "_PersistedProperty" }
    .merging(["Model": MacroSpec(type: ModelMacro.self, conformances: [])]) { _, new in new }

@Suite("@Model on a subclass of a model")
struct ModelSubclassExpansionTests {
    @Test("A subclass adds its own properties after its superclass's, overrides schemaMetadata and calls super")
    func subclassMembers() {
        let result = expand(
            """
            @Model final class Dog: Animal {
                var breed: String
                init(name: String, breed: String) {
                    self.breed = breed
                    super.init(name: name)
                }
            }
            """, specs: subclassMacros)
        #expect(result.diagnostics.isEmpty)
        let expected = [
            "@storageRestrictions(accesses: _$DogBackingData, initializes: _breed)",
            "_$DogBackingData.setInitialValue(initialValue, for: Self._$DogProperties.`breed`)",
            "nonisolated static let _$DogFirstPropertyIndex = Animal.schemaMetadata.count",
            "@ObservationIgnored @exclusivity(unchecked) private var _$DogBackingData: Strata.ModelBackingData = "
                + "Strata.ModelBackingData.forNewSubclassModel(Dog.self, propertyCount: Dog._$DogFirstPropertyIndex + 1)",
            "nonisolated static let _$breedProperty = Strata.PersistentProperty(index: Dog._$DogFirstPropertyIndex + 0, "
                + "name: \"breed\", keyPath: \\Dog.breed, metadata: nil)",
            "nonisolated struct _$DogPropertyList {\n        let `breed` = Dog._$breedProperty\n    }",
            "nonisolated static let _$DogProperties = _$DogPropertyList()",
            "override public class var schemaMetadata: [Strata.Schema.PropertyMetadata] {\n        super.schemaMetadata + [",
            "override public class var _$strataInheritedKeyPaths: [AnyKeyPath] {\n        Animal._$AnimalKeyPaths(rootedAt: Dog.self)",
            "public required init(backingData: Strata.ModelBackingData) {\n        self._$DogBackingData = backingData\n"
                + "        self._breed = Strata._PersistedSlot()\n        super.init(backingData: backingData)\n    }",
            "extension Dog: @unchecked Swift.Sendable {",
        ]
        for line in expected { #expect(result.source.contains(line), "\(line)") }
        // Nothing the superclass declares is declared again.
        #expect(!result.source.contains("persistentBackingData:"))
        #expect(!result.source.contains("_$observationRegistrar"))
        #expect(!result.source.contains("PersistentModel {"))
    }

    @Test("A base model that may be subclassed lets subclasses override schemaMetadata")
    func nonFinalBaseUsesAClassVar() {
        let result = expand(
            """
            @Model class Animal {
                var name: String = ""
            }
            """, only: modelMacrosOnly)
        #expect(result.diagnostics.isEmpty)
        #expect(result.source.contains("public class var schemaMetadata: [Strata.Schema.PropertyMetadata]"))
        #expect(result.source.contains("public var persistentBackingData: Strata.ModelBackingData = "))
    }

    @Test("A model with an inheritance clause keeps its backing data under its own name for its init accessors")
    func inheritanceClauseNamesTheStorage() {
        let result = expand(
            """
            @Model final class Item: Identifiable {
                var title: String = ""
            }
            """)
        #expect(result.diagnostics.isEmpty)
        #expect(result.source.contains("@storageRestrictions(accesses: _$ItemBackingData, initializes: _title)"))
        #expect(
            result.source.contains(
                "private var _$ItemBackingData: Strata.ModelBackingData = Strata.ModelBackingData.forNewModel(Item.self, propertyCount: 1)"
            ))
        #expect(result.source.contains("get {\n            _$ItemBackingData\n        }"))
        #expect(result.source.contains("self._$ItemBackingData = backingData"))
    }

    @Test("A model whose initializer calls super.init on a class that isn't a model is refused, naming both")
    func superclassThatIsNotAModel() {
        let result = expand(
            """
            @Model final class Dog: Pet {
                var breed: String
                init(breed: String) {
                    self.breed = breed
                    super.init()
                }
            }
            """, only: modelMacrosOnly)
        #expect(
            result.diagnostics == [
                ReportedDiagnostic(
                    line: 1, column: 25,
                    "@Model class 'Dog' inherits from 'Pet', which is not a @Model class; a model can inherit only from another "
                        + "@Model class (mark 'Pet' with @Model, or make 'Dog' a model of its own)")
            ])
    }
}
