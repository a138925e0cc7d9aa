import SwiftSyntax

/// Where a `@Model` class sits in a class hierarchy, as far as its declaration and the compiler's conformance
/// information tell.
///
/// The compiler passes the member role the protocols of `@Model`'s conformance list the class doesn't conform to
/// yet (SE-0407). A class that already conforms to `PersistentModel` without naming it inherits the conformance
/// from its superclass, which must then be a `@Model` class: its expansion adds only what the subclass declares and
/// overrides what must be overridden, reusing the superclass's backing data, observation registrar and
/// conformances.
struct ModelHierarchy {
    /// The superclass, when the class is a subclass of another `@Model` class.
    let superclass: String?
    /// Whether the class is `final` (no `class var` overrides are possible below it).
    let isFinal: Bool
    /// Whether the class is `open`, so members its subclasses override must be `open` too.
    let isOpen: Bool

    init(_ declaration: ClassDeclSyntax, conformingTo protocols: [TypeSyntax]) {
        let names = protocols.map { $0.as(MemberTypeSyntax.self)?.name.text ?? $0.trimmedDescription }
        let inherited = declaration.inheritanceClause?.inheritedTypes.map(\.type.trimmedDescription) ?? []
        let namesPersistentModel = inherited.contains { $0 == "PersistentModel" || $0.hasSuffix(".PersistentModel") }
        if !names.contains("PersistentModel"), !namesPersistentModel, let first = inherited.first {
            superclass = first
        } else {
            superclass = nil
        }
        isFinal = declaration.modifiers.contains(.final)
        isOpen = declaration.modifiers.contains(.open)
    }

    /// The stored property holding the backing data a class's own `init` accessors write to.
    ///
    /// A class without an inheritance clause is always a base model and keeps it in `persistentBackingData` itself.
    /// A class with one may be a subclass, whose initializer assigns its properties before `super.init` has
    /// initialized the superclass's `persistentBackingData`; an `init` accessor may only touch its own class's
    /// storage, so such a class keeps its own reference, named after it, to the same backing data. The accessor
    /// macro, which can't tell a superclass from a protocol, makes the same choice from the same syntax.
    static func initStorageName(className: String, hasInheritanceClause: Bool) -> String {
        hasInheritanceClause ? "_$\(className)BackingData" : "persistentBackingData"
    }
}

extension ClassDeclSyntax {
    /// Whether any initializer of the class calls `super.init`, which only a subclass can.
    var callsSuperInit: Bool {
        memberBlock.members.contains { member in
            guard let initializer = member.decl.as(InitializerDeclSyntax.self), let body = initializer.body else {
                return false
            }
            return body.statements.description.contains("super.init")
        }
    }
}
