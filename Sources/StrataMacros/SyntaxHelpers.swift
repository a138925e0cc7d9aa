import SwiftSyntax

extension AttributeSyntax {
    /// The attribute's name without any module qualification: `Attribute` for both
    /// `@Attribute` and `@Strata.Attribute`.
    var simpleName: String {
        if let member = attributeName.as(MemberTypeSyntax.self) {
            return member.name.text
        }
        return attributeName.trimmedDescription
    }
}

extension AttributeListSyntax {
    /// The first plain attribute named `name` (ignoring module qualification).
    func attribute(named name: String) -> AttributeSyntax? {
        for element in self {
            if case .attribute(let attribute) = element, attribute.simpleName == name {
                return attribute
            }
        }
        return nil
    }
}

extension AttributeListSyntax {
    /// Whether the list has `@Attribute(…)` with `.ephemeral` among its options.
    var isEphemeral: Bool {
        guard let arguments = attribute(named: "Attribute")?.arguments?.as(LabeledExprListSyntax.self) else {
            return false
        }
        return arguments.contains { argument in
            argument.label == nil
                && argument.expression.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "ephemeral"
        }
    }
}

extension AttributeListSyntax {
    /// A global actor attribute in the list (`@MainActor`, or a custom one, named `…Actor` by convention).
    var globalActorAttribute: AttributeSyntax? {
        for element in self {
            if case .attribute(let attribute) = element, attribute.simpleName.hasSuffix("Actor"),
                attribute.arguments == nil
            {
                return attribute
            }
        }
        return nil
    }

    /// Whether the list has `@Attribute(…)` with `.transformable(by: …)` among its options.
    var isTransformable: Bool {
        guard let arguments = attribute(named: "Attribute")?.arguments?.as(LabeledExprListSyntax.self) else {
            return false
        }
        return arguments.contains { argument in
            argument.label == nil
                && argument.expression.as(FunctionCallExprSyntax.self)?.calledExpression
                    .as(MemberAccessExprSyntax.self)?.declName.baseName.text == "transformable"
        }
    }
}

extension DeclModifierListSyntax {
    /// Whether any modifier is one of `keywords`.
    func contains(_ keywords: Keyword...) -> Bool {
        contains { modifier in
            keywords.contains { modifier.name.tokenKind == .keyword($0) }
        }
    }
}

extension IdentifierPatternSyntax {
    /// The property's name without backticks (`default` for `` `default` ``), usable inside
    /// generated identifiers such as `_$defaultProperty` and after a `.`.
    var bareName: String {
        String(identifier.text.filter { $0 != "`" })
    }
}

extension PatternBindingSyntax {
    /// Whether the binding declares a computed property (a getter, or `get`/`set`/… accessors).
    /// A binding with only `willSet`/`didSet` observers is stored.
    var isComputed: Bool {
        switch accessorBlock?.accessors {
        case .none:
            return false
        case .getter:
            return true
        case .accessors(let accessors):
            return accessors.contains { !$0.isObserver }
        @unknown default:
            return true
        }
    }

    /// An empty value of the declared type (`nil`, `false`, `0`, `""`, `[]`, `[:]`, an empty `Data`, the
    /// reference date), for a property `init(backingData:)` must give a value the declaration doesn't; `nil` for a
    /// type without one Strata knows, or no written type.
    var emptyValueExpression: String? {
        guard let type = typeAnnotation?.type else { return nil }
        if hasOptionalType { return "nil" }
        if type.is(ArrayTypeSyntax.self) { return "[]" }
        if type.is(DictionaryTypeSyntax.self) { return "[:]" }
        switch type.as(IdentifierTypeSyntax.self)?.name.text ?? type.as(MemberTypeSyntax.self)?.name.text {
        case "Bool": return "false"
        case "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64", "Double", "Float",
            "CGFloat", "Decimal", "TimeInterval":
            return "0"
        case "String", "Substring": return "\"\""
        case "Array", "ContiguousArray", "Set": return "[]"
        case "Dictionary": return "[:]"
        case "Data": return "Foundation.Data()"
        case "Date": return "Foundation.Date(timeIntervalSinceReferenceDate: 0)"
        default: return nil
        }
    }

    /// Whether the declaration gives the property no value of its own: no initial value, and not an optional
    /// `var` (whose implicit initial value is `nil`).
    func givesNoValue(isVar: Bool) -> Bool {
        initializer == nil && !(isVar && hasOptionalType)
    }

    /// Whether the binding is annotated `T?`, `T!` or `Optional<T>`: such a `var` starts out `nil`
    /// without an explicit default, also when `@Model` turns it into a persisted property.
    var hasOptionalType: Bool {
        guard let type = typeAnnotation?.type else { return false }
        if type.is(OptionalTypeSyntax.self) || type.is(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
            return true
        }
        let name = type.as(IdentifierTypeSyntax.self)?.name.text ?? type.as(MemberTypeSyntax.self)?.name.text
        return name == "Optional"
    }

    /// The `willSet`/`didSet` accessors of a stored property, if any.
    var observers: AccessorBlockSyntax? {
        guard let block = accessorBlock, !isComputed else { return nil }
        return block
    }
}

extension AccessorDeclSyntax {
    /// Whether this is a `willSet` or `didSet` observer.
    var isObserver: Bool {
        accessorSpecifier.tokenKind == .keyword(.willSet) || accessorSpecifier.tokenKind == .keyword(.didSet)
    }
}

extension MacroExpansionDeclSyntax {
    /// The generic argument written in `#Index<Book>(…)`, if any.
    var genericArgumentName: String? {
        genericArgumentClause?.arguments.first.map { $0.argument.trimmedDescription }
    }
}

extension ExtensionDeclSyntax {
    /// `extension <type>: <conformance> {}`, with `conformance` already module-qualified.
    static func conformance(of type: some TypeSyntaxProtocol, to conformance: String) -> ExtensionDeclSyntax? {
        let decl: DeclSyntax = "extension \(type.trimmed): \(raw: conformance) {}"
        return decl.as(ExtensionDeclSyntax.self)
    }
}
