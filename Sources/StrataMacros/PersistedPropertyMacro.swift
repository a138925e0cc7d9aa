import SwiftSyntax
import SwiftSyntaxMacros

/// `@_PersistedProperty`: routes a stored property of a `@Model` class through the model's
/// backing data, with observation.
///
/// `@Model` adds it to each persisted property. The peer `_<name>` slot has no initial value on
/// purpose: like SwiftData, the class's initializer must assign every persisted property, and the
/// `init` accessor is what records that first value.
struct PersistedPropertyMacro {
    /// The property's name, when `declaration` is a single-binding stored `var`.
    private static func propertyName(of declaration: some DeclSyntaxProtocol) -> String? {
        guard let variable = declaration.as(VariableDeclSyntax.self),
            variable.bindingSpecifier.tokenKind == .keyword(.var),
            variable.bindings.count == 1,
            let binding = variable.bindings.first,
            !binding.isComputed,
            let identifier = binding.pattern.as(IdentifierPatternSyntax.self)
        else {
            return nil
        }
        return identifier.bareName
    }
}

extension PersistedPropertyMacro: AccessorMacro {
    static func expansion(
        of node: AttributeSyntax,
        providingAccessorsOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AccessorDeclSyntax] {
        guard let name = propertyName(of: declaration) else { return [] }
        if let variable = declaration.as(VariableDeclSyntax.self), variable.attributes.isEphemeral {
            return ephemeralAccessors(name: name, observers: PropertyObservers(declaration))
        }
        let descriptor = descriptor(of: name, in: context)
        let storage = initStorage(in: context)
        // The accessors reach the backing data through `_withUnsafeGuaranteedRef`: nothing reassigns
        // `persistentBackingData` after the initializer, so the reference needs no retain and release around each
        // read and write (a tenth of a fetch that reads every property).
        // The getter is always inlined where a property is read: out of line, each read pays a call and looks up
        // the class's `Observable` conformance again, where inlined reads share one lookup.
        return [
            """
            @storageRestrictions(accesses: \(raw: storage), initializes: _\(raw: name))
            init(initialValue) {
            \(raw: storage).setInitialValue(initialValue, for: \(raw: descriptor))
            _\(raw: name) = Strata._PersistedSlot()
            }
            """,
            """
            @inline(__always) get {
            Swift.Unmanaged.passUnretained(persistentBackingData)._withUnsafeGuaranteedRef {
            $0.access(self, keyPath: \(raw: descriptor).keyPath)
            return $0.getValue(for: \(raw: descriptor))
            }
            }
            """,
            setter(descriptor: descriptor, observers: PropertyObservers(declaration)),
        ]
    }
}

extension PersistedPropertyMacro {
    /// The stored property the `init` accessor writes to, chosen from the enclosing class's declaration as `@Model`
    /// chooses it (see `ModelHierarchy.initStorageName`).
    private static func initStorage(in context: some MacroExpansionContext) -> String {
        guard let model = context.lexicalContext.lazy.compactMap({ $0.as(ClassDeclSyntax.self) }).first else {
            return "persistentBackingData"
        }
        return ModelHierarchy.initStorageName(
            className: model.name.trimmed.text, hasInheritanceClause: model.inheritanceClause != nil)
    }

    /// The expression for the property's `PersistentProperty`: its element of the class's `_$<Class>Properties`
    /// (see `ModelMacro.propertyList`), so that the getters a function inlines share one check that the
    /// descriptors are initialized.
    private static func descriptor(of name: String, in context: some MacroExpansionContext) -> String {
        guard let model = context.lexicalContext.lazy.compactMap({ $0.as(ClassDeclSyntax.self) }).first else {
            return "Self._$\(name)Property"
        }
        return "Self._$\(model.name.trimmed.text)Properties.`\(name)`"
    }

    /// The setter: the observers' bodies around the observed write into the backing data.
    ///
    /// Swift drops a property's `willSet`/`didSet` once a macro gives it a getter and a setter, so their bodies run
    /// here instead, each in a closure called at once so that a `return` leaves only the observer, as in Swift. The
    /// old value comes from the backing data without registering an observation access, as Swift's `oldValue`
    /// doesn't. Loading, refreshing and merging write the backing data directly, so observers run only for the
    /// assignments app code makes.
    private static func setter(descriptor: String, observers: PropertyObservers) -> AccessorDeclSyntax {
        let write = """
            Swift.Unmanaged.passUnretained(persistentBackingData)._withUnsafeGuaranteedRef { data in
            data.withMutation(of: self, keyPath: \(descriptor).keyPath) {
            data.setValue(newValue, for: \(descriptor), on: self)
            }
            }
            """
        return observedSetter(
            oldValue: "persistentBackingData.getValue(for: \(descriptor))", write: write, observers: observers)
    }

    /// `set { … }`: `write` between the `willSet` and `didSet` bodies, `oldValue` read first when `didSet` uses it.
    static func observedSetter(oldValue: String, write: String, observers: PropertyObservers) -> AccessorDeclSyntax {
        var lines: [String] = []
        if let didSet = observers.didSet, didSet.usesOldValue {
            lines.append("let \(didSet.parameter) = \(oldValue)")
        }
        if let willSet = observers.willSet {
            if willSet.parameter != "newValue" {
                lines.append("let \(willSet.parameter) = newValue")
            }
            lines.append("_ = { () -> Void in\n\(willSet.body)\n}()")
        }
        lines.append(write)
        if let didSet = observers.didSet {
            lines.append("_ = { () -> Void in\n\(didSet.body)\n}()")
        }
        return """
            set {
            \(raw: lines.joined(separator: "\n"))
            }
            """
    }
}

extension PersistedPropertyMacro {
    /// The accessors of an `@Attribute(.ephemeral)` property: observed reads and writes of the `_<name>` storage
    /// beside it, which the store never sees; a write gives the model unsaved changes. Its observers run as a
    /// persisted property's do.
    private static func ephemeralAccessors(name: String, observers: PropertyObservers) -> [AccessorDeclSyntax] {
        [
            """
            @storageRestrictions(initializes: _\(raw: name))
            init(initialValue) {
            _\(raw: name) = initialValue
            }
            """,
            """
            get {
            persistentBackingData.access(self, keyPath: \\.\(raw: name))
            return _\(raw: name)
            }
            """,
            observedSetter(
                oldValue: "_\(name)",
                write: "persistentBackingData.withMutation(of: self, keyPath: \\.\(name)) {\n_\(name) = newValue\n}\n"
                    + "persistentBackingData.ephemeralValueDidChange(on: self)",
                observers: observers),
        ]
    }
}

extension PersistedPropertyMacro: PeerMacro {
    static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let name = propertyName(of: declaration) else { return [] }
        if let variable = declaration.as(VariableDeclSyntax.self), variable.attributes.isEphemeral,
            let binding = variable.bindings.first
        {
            // The declaration's type and initial value, as written: either may be missing (`var draft = ""`,
            // `var selection: Item?`), and Swift infers or defaults the storage as it would the property's.
            let type = binding.typeAnnotation.map { ": \($0.type.trimmedDescription)" } ?? ""
            let initial = binding.initializer.map { " = \($0.value.trimmedDescription)" } ?? ""
            return ["@ObservationIgnored private var _\(raw: name)\(raw: type)\(raw: initial)"]
        }
        return ["@ObservationIgnored private var _\(raw: name): Strata._PersistedSlot"]
    }
}
