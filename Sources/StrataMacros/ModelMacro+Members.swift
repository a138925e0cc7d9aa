import SwiftSyntax
import SwiftSyntaxMacros

extension ModelMacro: MemberMacro {
    static func expansion(
        of node: AttributeSyntax,
        providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let classDecl = declaration.as(ClassDeclSyntax.self) else {
            context.diagnose(notAClass(declaration))
            return []
        }
        let model = ModelDescription(classDecl)
        model.diagnostics.forEach(context.diagnose)
        guard modelClass(of: declaration) != nil else { return [] }
        let hierarchy = ModelHierarchy(classDecl, conformingTo: protocols)
        if let superclass = hierarchy.superclass {
            return subclassMembers(model, superclass: superclass, hierarchy: hierarchy)
                + operatorWitnesses(model, declaration: classDecl)
        }
        if let inherited = classDecl.inheritanceClause?.inheritedTypes.first, classDecl.callsSuperInit {
            context.diagnose(notAModelSuperclass(model.className, inherited.type))
        }

        var members = backingDataStorage(model, declaration: classDecl)
        members += propertyDescriptors(model)
        members.append(schemaMetadata(model, hierarchy: hierarchy))
        if !model.ephemeral.isEmpty || !hierarchy.isFinal {
            let introducer = hierarchy.isFinal ? "public static" : hierarchy.isOpen ? "open class" : "public class"
            members.append(ephemeralAttributes(model, introducer: introducer, inherited: nil))
        }
        if !hierarchy.isFinal { members += subclassKeyPaths(model, superclass: nil, hierarchy: hierarchy) }
        members.append(backingDataInitializer(model, storage: initStorage(classDecl)))
        if !model.hasInitializer, model.propertiesNeedingValues.isEmpty {
            members.append("public init() {}")
        }
        members += observationMembers(
            className: model.className, isolation: hasGlobalActor(classDecl) ? "" : "nonisolated ")
        members += equalityWitness(model, declaration: classDecl)
        members += operatorWitnesses(model, declaration: classDecl)
        return members
    }

    /// The class's `Equatable` witness, and for a class without an `==` in its body the `_$strataEquality` that
    /// decides at the first comparison whether an extension declares one.
    ///
    /// The conformance comes from the macro's extension, and for such a conformance the compiler looks the
    /// requirement's operator up both globally and as a member, so it finds an app's `==` twice (in the class or in
    /// any extension of it) and reports "multiple matching functions named '=='". `@_implements` names the witness
    /// directly, so that lookup never runs. Its body calls `==` on the class: an app's own operator, declared
    /// anywhere, wins that call; with none, the call is the `Equatable` requirement again, which
    /// `Strata._ModelEquality` notices and answers by identity, as `PersistentModel`'s `==` does.
    private static func equalityWitness(_ model: ModelDescription, declaration: ClassDeclSyntax) -> [DeclSyntax] {
        let isolation = hasGlobalActor(declaration) ? "" : "nonisolated "
        let signature: DeclSyntax = """
            @_implements(Swift.Equatable, ==(_:_:))
            \(raw: model.ownEqualityAccess ?? "public ")\(raw: isolation)static func _$strataEquals(\
            _ lhs: \(raw: model.className), _ rhs: \(raw: model.className)) -> Bool
            """
        guard model.ownEqualityAccess == nil else {
            return ["\(signature) {\nlhs == rhs\n}"]
        }
        return [
            "nonisolated static let _$strataEquality = Strata._ModelEquality()",
            "\(signature) {\n_$strataEquality.equals(lhs, rhs) { $0 == $1 }\n}",
        ]
    }

    /// `nonisolated static let _$<name>Property = Strata.PersistentProperty(…)` per persisted property.
    /// `firstIndex` is where the class's own properties start in its entity: `nil` for a base model (0), the
    /// expression counting the superclass's properties for a subclass.
    ///
    /// After them, `_$<Class>Properties`: the same descriptors as one value, which the accessors read (see
    /// `propertyList(_:)`).
    static func propertyDescriptors(_ model: ModelDescription, firstIndex: String? = nil) -> [DeclSyntax] {
        let descriptors: [DeclSyntax] = model.persisted.enumerated().map { index, property in
            let position = firstIndex.map { "\($0) + \(index)" } ?? "\(index)"
            return """
                nonisolated static let _$\(raw: property.name)Property = Strata.PersistentProperty(\
                index: \(raw: position), name: "\(raw: property.name)", keyPath: \\\(raw: model.className).\(raw: property.name), \
                \(raw: property.isTransformable ? "transformable" : "metadata"): \(raw: property.metadata))\
                \(raw: property.isConstant ? ".constant()" : "")
                """
        }
        guard !model.persisted.isEmpty else { return descriptors }
        return descriptors + propertyList(model)
    }

    /// `nonisolated static let _$<Class>Properties`: a struct (`_$<Class>PropertyList`) holding every descriptor of
    /// the class's own persisted properties, one field each, named as the property.
    ///
    /// Each `static let` is a global made on first use, and every use checks that it was (`swift_once`). The
    /// accessors take their descriptor from this one value instead, so a function that reads several properties of
    /// a model (getters are inlined) checks once, not once per property, and reads each field in place. The struct
    /// is `Sendable` by inference (its fields are), so a class with a type of its own named `Sendable` compiles.
    static func propertyList(_ model: ModelDescription) -> [DeclSyntax] {
        let name = model.className
        let fields = model.persisted.map { "let `\($0.name)` = \(name)._$\($0.name)Property" }
        return [
            """
            nonisolated struct _$\(raw: name)PropertyList {
            \(raw: fields.joined(separator: "\n"))
            }
            """,
            "nonisolated static let _$\(raw: name)Properties = _$\(raw: name)PropertyList()",
        ]
    }

    /// The stored backing data: `persistentBackingData` itself, or — for a class with an inheritance clause — a
    /// stored property named after the class behind a computed `persistentBackingData` (see
    /// `ModelHierarchy.initStorageName`).
    private static func backingDataStorage(_ model: ModelDescription, declaration: ClassDeclSyntax) -> [DeclSyntax] {
        let initialValue =
            "Strata.ModelBackingData.forNewModel(\(model.className).self, propertyCount: \(model.persisted.count))"
        let storage = initStorage(declaration)
        guard storage != "persistentBackingData" else {
            return [
                "@ObservationIgnored @exclusivity(unchecked) public var persistentBackingData: Strata.ModelBackingData = \(raw: initialValue)"
            ]
        }
        return [
            "@ObservationIgnored @exclusivity(unchecked) private var \(raw: storage): Strata.ModelBackingData = \(raw: initialValue)",
            """
            public var persistentBackingData: Strata.ModelBackingData {
            get { \(raw: storage) }
            set { \(raw: storage) = newValue }
            }
            """,
        ]
    }

    static func initStorage(_ declaration: ClassDeclSyntax) -> String {
        ModelHierarchy.initStorageName(
            className: declaration.name.trimmed.text, hasInheritanceClause: declaration.inheritanceClause != nil)
    }

    /// The `Schema.PropertyMetadata` entries of the class's own persisted properties.
    static func metadataEntries(_ model: ModelDescription) -> String {
        model.persisted
            .map { property in
                let defaultValue = property.initialValue.map { ", defaultValue: \($0)" } ?? ""
                return "Strata.Schema.PropertyMetadata(\(model.className)._$\(property.name)Property\(defaultValue))"
            }
            .joined(separator: ",\n")
    }

    /// `_$strataEphemeralAttributes`: the schema's description of each `@Attribute(.ephemeral)` property, after
    /// `inherited` (the superclass's, for a subclass model).
    static func ephemeralAttributes(_ model: ModelDescription, introducer: String, inherited: String?) -> DeclSyntax {
        let entries = model.ephemeral.map { property in
            "Strata.Schema.Attribute._ephemeral(name: \"\(property.name)\", configuration: \(property.metadata), "
                + "keyPath: \\\(model.className).\(property.name))"
        }
        let list = entries.isEmpty ? "[]" : "[\n\(entries.joined(separator: ",\n"))\n]"
        return """
            \(raw: introducer) var _$strataEphemeralAttributes: [Strata.Schema.Attribute] {
            \(raw: inherited.map { "\($0) + " } ?? "")\(raw: list)
            }
            """
    }

    /// `schemaMetadata`: `static` in a final class; a `class var` a subclass model can override otherwise.
    private static func schemaMetadata(_ model: ModelDescription, hierarchy: ModelHierarchy) -> DeclSyntax {
        let introducer = hierarchy.isFinal ? "public static" : hierarchy.isOpen ? "open class" : "public class"
        return """
            \(raw: introducer) var schemaMetadata: [Strata.Schema.PropertyMetadata] {
            [
            \(raw: metadataEntries(model))
            ]
            }
            """
    }

    /// The statements of `init(backingData:)` that give each of the class's own persisted properties its slot.
    static func slotAssignments(_ model: ModelDescription) -> [String] {
        // A `let` takes its stored value here; a `var` only marks its slot, its value being the backing data's.
        model.persisted.map { property in
            property.isConstant
                ? "self.\(property.name) = backingData.getValue(for: \(model.className)._$\(property.name)Property)"
                : "self._\(property.name) = Strata._PersistedSlot()"
        } + model.properties.compactMap(\.loadedValue).map { "self.\($0.target) = \($0.expression)" }
    }

    private static func backingDataInitializer(_ model: ModelDescription, storage: String) -> DeclSyntax {
        let body = (["self.\(storage) = backingData"] + slotAssignments(model)).joined(separator: "\n")
        return """
            public required init(backingData: Strata.ModelBackingData) {
            \(raw: body)
            }
            """
    }

    /// The observation members of a base model: `_$observationRegistrar`, the registrar its backing data makes on
    /// the model's first read, and the `access` and `withMutation` an `@Observable` class has, through the backing
    /// data, which makes no registrar for a write (see `ModelBackingData+Observation`). `isolation` is
    /// `"nonisolated "`, or empty for a class bound to a global actor, whose backing data is isolated to it.
    static func observationMembers(className: String, isolation: String) -> [DeclSyntax] {
        [
            """
            public \(raw: isolation)var _$observationRegistrar: Observation.ObservationRegistrar {
            persistentBackingData.observationRegistrar
            }
            """,
            """
            internal \(raw: isolation)func access<_Member>(keyPath: KeyPath<\(raw: className), _Member>) {
            persistentBackingData.access(self, keyPath: keyPath)
            }
            """,
            """
            internal \(raw: isolation)func withMutation<_Member, _MutationResult>(\
            keyPath: KeyPath<\(raw: className), _Member>, _ mutation: () throws -> _MutationResult\
            ) rethrows -> _MutationResult {
            try persistentBackingData.withMutation(of: self, keyPath: keyPath, mutation)
            }
            """,
        ]
    }
}
