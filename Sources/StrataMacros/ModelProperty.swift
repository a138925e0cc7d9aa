import SwiftDiagnostics
import SwiftSyntax

/// How `@Model` treats one instance `var`/`let` member of the class.
struct ModelProperty {
    /// The property's name (the names joined by ", " for a multi-binding declaration).
    let name: String
    /// `false` for computed properties.
    let isStored: Bool
    /// Whether the declaration gives an initial value (always `true` for computed properties).
    let hasDefault: Bool
    /// Set when the property is stored in the model's backing data.
    let persisted: Persisted?
    /// Whether the property is `@Attribute(.ephemeral)`: observed like a persisted one, but kept in the model only.
    var isEphemeral = false
    /// For an `@Attribute(.ephemeral)` property, its `Strata.Schema.Attribute(…)` configuration: the schema lists it.
    var ephemeralMetadata: String?
    /// For a stored property kept in the model only (`@Transient`, `@Attribute(.ephemeral)`) whose declaration has
    /// no initial value: what `init(backingData:)` assigns (the storage's name and an empty value of its type), as
    /// models loaded from the store don't run the class's initializer.
    var loadedValue: (target: String, expression: String)?
    /// Problems that keep the property from being persisted as written.
    let diagnostics: [Diagnostic]

    /// What `@Model` needs to generate for a persisted property.
    struct Persisted {
        let name: String
        /// `Strata.Schema.Attribute(…)`, `Strata.Schema.Relationship(…)` or `nil`.
        let metadata: String
        /// Whether it is `@Attribute(.transformable(by:))`: stored through a value transformer, whatever its type.
        var isTransformable = false
        /// Whether it is a `let`: Swift keeps its value in the class's own storage (no macro may give a `let`
        /// accessors), `init(backingData:)` sets it from the row, and inserting the model copies it into the
        /// backing data.
        var isConstant = false
        /// The declared initial value's expression, if any (reported as the property's default value).
        var initialValue: String? = nil
    }
}

extension ModelProperty {
    /// Classifies `variable`; `nil` for `static`/`class` properties, which `@Model` ignores.
    init?(_ variable: VariableDeclSyntax) {
        if variable.modifiers.contains(.static, .class) {
            return nil
        }
        let bindings = Array(variable.bindings)
        let names = bindings.map { $0.pattern.trimmedDescription }.joined(separator: ", ")
        let isVar = variable.bindingSpecifier.tokenKind == .keyword(.var)
        let hasDefault = bindings.allSatisfy { !$0.givesNoValue(isVar: isVar) }
        guard bindings.count == 1, let binding = bindings.first,
            let identifier = binding.pattern.as(IdentifierPatternSyntax.self)
        else {
            let problem = StrataDiagnostic(
                "oneBindingPerProperty",
                "'\(variable.bindingSpecifier.text) \(names)' declares several properties at once; "
                    + "@Model needs one property per declaration, so declare each on its own line"
            )
            self.init(
                name: names, isStored: true, hasDefault: hasDefault, persisted: nil,
                diagnostics: [problem.at(variable)])
            return
        }
        let name = identifier.bareName
        if binding.isComputed {
            self.init(name: name, isStored: false, hasDefault: true, persisted: nil, diagnostics: [])
            return
        }
        if isVar, variable.attributes.isEphemeral {
            // Never stored, so any type will do; but `init(backingData:)` doesn't run the class's initializer, so
            // loaded models start with the declared value, or else an empty value of a type Strata knows one of.
            let empty = hasDefault ? nil : binding.emptyValueExpression
            let problem = StrataDiagnostic(
                "ephemeralWithoutDefault",
                "@Attribute(.ephemeral) property '\(name)' needs a default value, because models loaded from the "
                    + "store don't run your initializer and '\(binding.typeAnnotation?.type.trimmedDescription ?? "its type")' "
                    + "has no empty value Strata knows; add '= <value>'"
            ).at(binding)
            self.init(
                name: name, isStored: true, hasDefault: hasDefault, persisted: nil,
                diagnostics: !hasDefault && empty == nil ? [problem] : [])
            isEphemeral = true
            ephemeralMetadata = Self.metadata(of: variable.attributes)
            loadedValue = empty.map { ("_\(name)", $0) }
            return
        }
        let problem = Self.problem(with: variable, binding: binding, name: name)
        let persisted =
            problem == nil && Self.isPersisted(variable, binding: binding)
            ? Persisted(
                name: name, metadata: Self.metadata(of: variable.attributes),
                isTransformable: variable.attributes.isTransformable, isConstant: !isVar,
                initialValue: binding.initializer?.value.trimmedDescription)
            : nil
        self.init(
            name: name, isStored: true, hasDefault: hasDefault, persisted: persisted,
            diagnostics: problem.map { [$0] } ?? [])
        if persisted == nil, problem == nil, !hasDefault, let empty = binding.emptyValueExpression {
            loadedValue = (name, empty)
        }
    }

    /// Every stored property but a `@Transient` one is persisted, `let` constants included (as in SwiftData).
    private static func isPersisted(_ variable: VariableDeclSyntax, binding: PatternBindingSyntax) -> Bool {
        variable.attributes.attribute(named: "Transient") == nil
    }

    /// The first reason a stored property can't be persisted as written.
    private static func problem(
        with variable: VariableDeclSyntax, binding: PatternBindingSyntax, name: String
    ) -> Diagnostic? {
        if variable.attributes.attribute(named: "Transient") != nil {
            return nil // @Transient checks its own requirements.
        }
        if variable.bindingSpecifier.tokenKind == .keyword(.let), binding.initializer != nil {
            // Swift assigns a `let`'s initial value in every initializer, `init(backingData:)` included, and can't
            // assign it again, so a model loaded from the store would show the initial value, not the stored one.
            let varKeyword = variable.bindingSpecifier.with(\.tokenKind, .keyword(.var))
            return StrataDiagnostic(
                "letWithInitialValue",
                "'let' property '\(name)' has an initial value, which Swift gives every model loaded from the store "
                    + "instead of its stored value; use 'var' (or assign the value in the initializer)"
            ).at(
                variable.bindingSpecifier,
                fixIt: .replace(
                    message: StrataFixIt("Replace 'let' with 'var'"),
                    oldNode: variable.bindingSpecifier, newNode: varKeyword))
        }
        if let lazy = variable.modifiers.first(where: { $0.name.tokenKind == .keyword(.lazy) }) {
            return StrataDiagnostic(
                "lazyProperty",
                "'lazy' property '\(name)' can't be persisted; mark it @Transient or remove 'lazy'"
            ).at(lazy)
        }
        if let actor = variable.attributes.globalActorAttribute {
            // The store reads and writes persisted values from whichever actor its context runs on, and the
            // descriptor's key path to an isolated property can't be formed there.
            return StrataDiagnostic(
                "isolatedStoredProperty",
                "persisted property '\(name)' can't be isolated to '@\(actor.simpleName)': a model's stored values "
                    + "are read from its context's actor; remove '@\(actor.simpleName)' (mark the methods that "
                    + "need the actor instead), or mark the property @Transient"
            ).at(actor)
        }
        // Without a written type Swift infers it from the initial value, and the generated descriptor's key path
        // carries it to the schema; a type the store can't hold then has no `PersistentProperty` initializer.
        guard let annotation = binding.typeAnnotation else {
            return nil
        }
        if let unsupported = TypeSupport.unsupportedPart(of: annotation.type) {
            let part =
                unsupported.trimmedDescription == annotation.type.trimmedDescription
                ? "" : " (because of '\(unsupported.trimmedDescription)')"
            return StrataDiagnostic(
                "unsupportedType",
                "property '\(name)' has type '\(annotation.type.trimmedDescription)'\(part), which can't be "
                    + "persisted; use \(TypeSupport.supportedSummary), or mark it @Transient"
            ).at(annotation.type)
        }
        return nil
    }

    /// `Strata.Schema.Attribute(<user's arguments>)`, the relationship equivalent, or `nil`.
    static func metadata(of attributes: AttributeListSyntax) -> String {
        for (macro, type) in [("Attribute", "Attribute"), ("Relationship", "Relationship")] {
            if let attribute = attributes.attribute(named: macro) {
                let arguments = attribute.arguments?.trimmedDescription ?? ""
                return "Strata.Schema.\(type)(\(arguments))"
            }
        }
        return "nil"
    }
}
