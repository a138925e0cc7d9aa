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

        var members: [DeclSyntax] = [
            "@ObservationIgnored @exclusivity(unchecked) public var persistentBackingData: Strata.ModelBackingData = Strata.ModelBackingData.forNewModel(\(raw: model.className).self, propertyCount: \(raw: model.persisted.count))",
        ]
        members += propertyDescriptors(model)
        members.append(schemaMetadata(model))
        members.append(backingDataInitializer(model))
        if !model.hasInitializer, model.propertiesNeedingValues.isEmpty {
            members.append("public init() {}")
        }
        members += observationMembers(className: model.className)
        if let access = model.ownEqualityAccess {
            members.append(equalityWitness(className: model.className, access: access))
        }
        return members
    }

    /// Names the class's own `==` as its `Equatable` witness.
    ///
    /// The conformance comes from the macro's extension, and from there the compiler finds a `==` declared in the
    /// class twice, which it reports as "multiple matching functions named '=='". `@_implements` names the witness
    /// directly; its body's `==` is an ordinary call, which picks the class's own operator over `PersistentModel`'s.
    private static func equalityWitness(className: String, access: String) -> DeclSyntax {
        """
        @_implements(Swift.Equatable, ==(_:_:))
        \(raw: access)static func _$strataEquals(_ lhs: \(raw: className), _ rhs: \(raw: className)) -> Bool {
        lhs == rhs
        }
        """
    }

    /// `nonisolated static let _$<name>Property = Strata.PersistentProperty(…)` per persisted property.
    private static func propertyDescriptors(_ model: ModelDescription) -> [DeclSyntax] {
        model.persisted.enumerated().map { index, property in
            """
            nonisolated static let _$\(raw: property.name)Property = Strata.PersistentProperty(\
            index: \(raw: index), name: "\(raw: property.name)", keyPath: \\\(raw: model.className).\(raw: property.name), \
            metadata: \(raw: property.metadata))\(raw: property.isConstant ? ".constant()" : "")
            """
        }
    }

    private static func schemaMetadata(_ model: ModelDescription) -> DeclSyntax {
        let entries = model.persisted
            .map { property in
                let defaultValue = property.initialValue.map { ", defaultValue: \($0)" } ?? ""
                return "Strata.Schema.PropertyMetadata(\(model.className)._$\(property.name)Property\(defaultValue))"
            }
            .joined(separator: ",\n")
        return """
            public static var schemaMetadata: [Strata.Schema.PropertyMetadata] {
            [
            \(raw: entries)
            ]
            }
            """
    }

    private static func backingDataInitializer(_ model: ModelDescription) -> DeclSyntax {
        // A `let` takes its stored value here; a `var` only marks its slot, its value being the backing data's.
        let slots = model.persisted.map { property in
            property.isConstant
                ? "self.\(property.name) = backingData.getValue(for: \(model.className)._$\(property.name)Property)"
                : "self._\(property.name) = Strata._PersistedSlot()"
        }
        let body = (["self.persistentBackingData = backingData"] + slots).joined(separator: "\n")
        return """
            public required init(backingData: Strata.ModelBackingData) {
            \(raw: body)
            }
            """
    }

    private static func observationMembers(className: String) -> [DeclSyntax] {
        [
            "@ObservationIgnored public let _$observationRegistrar = Observation.ObservationRegistrar()",
            """
            internal nonisolated func access<_Member>(keyPath: KeyPath<\(raw: className), _Member>) {
            _$observationRegistrar.access(self, keyPath: keyPath)
            }
            """,
            """
            internal nonisolated func withMutation<_Member, _MutationResult>(\
            keyPath: KeyPath<\(raw: className), _Member>, _ mutation: () throws -> _MutationResult\
            ) rethrows -> _MutationResult {
            try _$observationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
            }
            """,
        ]
    }
}
