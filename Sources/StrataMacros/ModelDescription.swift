import SwiftDiagnostics
import SwiftSyntax

/// What `@Model` learned about a class: its persisted properties in declaration order, the
/// `#Index`/`#Unique` it declares, and every problem found along the way.
struct ModelDescription {
    let className: String
    private(set) var properties: [ModelProperty] = []
    private(set) var hasInitializer = false
    /// The access modifier (`"public "`, or `""`) of the class's own `static func ==`, when it declares one.
    private(set) var ownEqualityAccess: String?
    /// The class's own binary operators other than `==` (`static func < (lhs: Item, rhs: Item) -> Bool`), which may
    /// witness a protocol its own clause states.
    private(set) var ownOperators: [OwnOperator] = []
    private(set) var diagnostics: [Diagnostic] = []

    /// The persisted properties, in declaration order (their position is their schema index).
    var persisted: [ModelProperty.Persisted] { properties.compactMap(\.persisted) }

    /// The `@Attribute(.ephemeral)` properties, in declaration order: their names and configurations.
    var ephemeral: [(name: String, metadata: String)] {
        properties.compactMap { property in property.ephemeralMetadata.map { (property.name, $0) } }
    }

    /// Stored properties that have no initial value and so must be assigned by an initializer.
    var propertiesNeedingValues: [String] {
        properties.filter { $0.isStored && !$0.hasDefault }.map(\.name)
    }

    init(_ declaration: ClassDeclSyntax) {
        className = declaration.name.trimmed.text
        if let generics = declaration.genericParameterClause {
            diagnostics.append(
                StrataDiagnostic(
                    "genericModel",
                    "@Model doesn't support generic classes; remove the generic parameters from '\(className)'"
                ).at(generics))
        }
        var constraintMacros: Set<String> = []
        for member in declaration.memberBlock.members {
            read(member.decl, constraints: &constraintMacros)
        }
        if !hasInitializer, !propertiesNeedingValues.isEmpty {
            let names = propertiesNeedingValues.map { "'\($0)'" }.joined(separator: ", ")
            diagnostics.append(
                StrataDiagnostic(
                    "missingInitializer",
                    "@Model class '\(className)' needs an initializer that assigns \(names) "
                        + "(or give every stored property a default value)"
                ).at(declaration.name))
        }
    }

    /// Notes what `decl`, a member of the class, declares: a property, an initializer, the class's own `==`, a
    /// constraint, or an `#if` block, whose members are read in turn.
    private mutating func read(_ decl: DeclSyntax, constraints: inout Set<String>) {
        if let variable = decl.as(VariableDeclSyntax.self), let property = ModelProperty(variable) {
            properties.append(property)
            diagnostics += property.diagnostics
        } else if let initializer = decl.as(InitializerDeclSyntax.self),
            !initializer.modifiers.contains(.convenience)
        {
            hasInitializer = true
        } else if let function = decl.as(FunctionDeclSyntax.self), function.name.text == "==",
            function.modifiers.contains(.static, .class)
        {
            ownEqualityAccess = OwnOperator.witnessAccess(function.modifiers)
        } else if let function = decl.as(FunctionDeclSyntax.self), let own = OwnOperator(function) {
            ownOperators.append(own)
        } else if let conditional = decl.as(IfConfigDeclSyntax.self) {
            readConditional(conditional, constraints: &constraints)
        } else if let expansion = decl.as(MacroExpansionDeclSyntax.self),
            ["Index", "Unique"].contains(expansion.macroName.text)
        {
            checkConstraint(expansion, seen: &constraints)
        }
    }

    /// Reads the members of every clause of an `#if` block (`#if os(Linux)`, `#if DEBUG`, …): methods, computed
    /// and `@Transient` properties, nested types and initializers there are the class's like any other. A
    /// persisted stored property is refused, because the store's schema can't differ between builds of one app.
    private mutating func readConditional(_ conditional: IfConfigDeclSyntax, constraints: inout Set<String>) {
        for clause in conditional.clauses {
            guard case .decls(let members)? = clause.elements else { continue }
            for member in members {
                guard let variable = member.decl.as(VariableDeclSyntax.self) else {
                    read(member.decl, constraints: &constraints)
                    continue
                }
                // Computed, static and @Transient properties need nothing from the macro.
                if let property = ModelProperty(variable), property.isStored,
                    property.persisted != nil || property.isEphemeral
                {
                    diagnostics.append(
                        StrataDiagnostic(
                            "conditionalStoredProperty",
                            "'\(property.name)' is stored by @Model, so it can't be declared inside '#if': the store's "
                                + "schema must be the same in every build; move it out of the '#if' block, or mark it "
                                + "@Transient"
                        ).at(variable.bindings.first.map { Syntax($0.pattern) } ?? Syntax(variable)))
                }
            }
        }
    }

    /// Reports a repeated `#Index`/`#Unique`, or one whose generic argument isn't this class.
    private mutating func checkConstraint(
        _ expansion: MacroExpansionDeclSyntax, seen: inout Set<String>
    ) {
        let macro = expansion.macroName.text
        if !seen.insert(macro).inserted {
            diagnostics.append(
                StrataDiagnostic(
                    "repeatedConstraint",
                    "a @Model class can declare only one #\(macro); list every \(macro == "Index" ? "index" : "constraint") "
                        + "as another argument of the first #\(macro)"
                ).at(expansion))
        }
        if let argument = expansion.genericArgumentClause?.arguments.first,
            argument.argument.trimmedDescription != className
        {
            diagnostics.append(
                StrataDiagnostic(
                    "constraintType",
                    "#\(macro)<\(argument.argument.trimmedDescription)> must name the class it is declared in; "
                        + "write #\(macro)<\(className)>"
                ).at(argument))
        }
    }
}
