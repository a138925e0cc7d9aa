import SwiftDiagnostics
import SwiftSyntax

extension ModelMacro {
    /// The members of a `@Model` subclass of another `@Model` class.
    ///
    /// The superclass already declares the backing data, the observation registrar and the conformances; the
    /// subclass adds its own properties' descriptors after the superclass's (their indexes continue the
    /// superclass's), overrides `schemaMetadata` with the superclass's properties followed by its own, and
    /// implements the required `init(backingData:)`, which hands the data to `super`. It keeps its own reference to
    /// the backing data for its `init` accessors, which run before `super.init`; the superclass's initial value
    /// adopts that same backing data (`ModelBackingData.forNewSubclassModel`).
    static func subclassMembers(
        _ model: ModelDescription, superclass: String, hierarchy: ModelHierarchy
    ) -> [DeclSyntax] {
        let name = model.className
        let storage = ModelHierarchy.initStorageName(className: name, hasInheritanceClause: true)
        let firstIndex = "\(name)._$\(name)FirstPropertyIndex"
        var members: [DeclSyntax] = [
            """
            nonisolated static let _$\(raw: name)FirstPropertyIndex = \(raw: superclass).schemaMetadata.count
            """,
            """
            @ObservationIgnored @exclusivity(unchecked) private var \(raw: storage): Strata.ModelBackingData = \
            Strata.ModelBackingData.forNewSubclassModel(\(raw: name).self, propertyCount: \(raw: firstIndex) + \(raw: model.persisted.count))
            """,
        ]
        members += propertyDescriptors(model, firstIndex: firstIndex)
        let introducer = hierarchy.isOpen ? "override open class" : "override public class"
        let entries = metadataEntries(model)
        members.append(
            """
            \(raw: introducer) var schemaMetadata: [Strata.Schema.PropertyMetadata] {
            super.schemaMetadata + [
            \(raw: entries)
            ]
            }
            """)
        if !model.ephemeral.isEmpty {
            members.append(
                ephemeralAttributes(model, introducer: introducer, inherited: "super._$strataEphemeralAttributes"))
        }
        members.append(
            """
            \(raw: introducer) var _$strataInheritedKeyPaths: [AnyKeyPath] {
            \(raw: superclass)._$\(raw: superclass.split(separator: ".").last ?? "")KeyPaths(rootedAt: \(raw: name).self)
            }
            """)
        if !hierarchy.isFinal { members += subclassKeyPaths(model, superclass: superclass, hierarchy: hierarchy) }
        let body =
            (["self.\(storage) = backingData"] + slotAssignments(model) + ["super.init(backingData: backingData)"])
            .joined(separator: "\n")
        members.append(
            """
            public required init(backingData: Strata.ModelBackingData) {
            \(raw: body)
            }
            """)
        return members
    }

    /// The members a class that may be subclassed gives its subclass models: the key paths of all its persisted
    /// properties rooted at a subclass (`\Dog.name` for `Animal.name`: a key path isn't equal to the same property's
    /// key path rooted at another class, and predicates and sorts over a subclass name it so), and — in a base
    /// model — the overridable list of a class's inherited key paths, empty for the base itself.
    static func subclassKeyPaths(
        _ model: ModelDescription, superclass: String?, hierarchy: ModelHierarchy
    ) -> [DeclSyntax] {
        let name = model.className
        let own = model.persisted.map { "\\_Sub.\($0.name)" }.joined(separator: ", ")
        let inherited =
            superclass.map { "\($0)._$\($0.split(separator: ".").last ?? "")KeyPaths(rootedAt: _Sub.self) + " } ?? ""
        var members: [DeclSyntax] = [
            """
            public static func _$\(raw: name)KeyPaths<_Sub: \(raw: name)>(rootedAt _: _Sub.Type) -> [AnyKeyPath] {
            \(raw: inherited)[\(raw: own)]
            }
            """
        ]
        if superclass == nil {
            members.append(
                """
                \(raw: hierarchy.isOpen ? "open" : "public") class var _$strataInheritedKeyPaths: [AnyKeyPath] {
                []
                }
                """)
        }
        return members
    }

    /// The error for a `@Model` class whose initializer calls `super.init` on a superclass that isn't a model.
    static func notAModelSuperclass(_ className: String, _ superclass: TypeSyntax) -> Diagnostic {
        StrataDiagnostic(
            "superclassNotAModel",
            "@Model class '\(className)' inherits from '\(superclass.trimmedDescription)', which is not a @Model class; "
                + "a model can inherit only from another @Model class (mark '\(superclass.trimmedDescription)' with @Model, "
                + "or make '\(className)' a model of its own)"
        ).at(superclass)
    }
}
