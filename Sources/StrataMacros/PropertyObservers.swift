import SwiftSyntax

/// The `willSet` and `didSet` observers written on a stored property, as `@_PersistedProperty` moves them into the
/// setter it generates.
struct PropertyObservers {
    /// One observer: the name its value goes by and its statements.
    struct Observer {
        /// `newValue`/`oldValue`, or the name written in `willSet(name)`/`didSet(name)`.
        let parameter: String
        /// The observer's statements, as written.
        let body: String
        /// Whether the body names the parameter (Swift reads the old value only then).
        let usesOldValue: Bool
    }

    private(set) var willSet: Observer?
    private(set) var didSet: Observer?

    /// The observers of `declaration`'s only binding; none when it has no accessor block.
    init(_ declaration: some DeclSyntaxProtocol) {
        guard let binding = declaration.as(VariableDeclSyntax.self)?.bindings.first,
            case .accessors(let accessors) = binding.accessorBlock?.accessors
        else { return }
        for accessor in accessors where accessor.isObserver {
            let isWillSet = accessor.accessorSpecifier.tokenKind == .keyword(.willSet)
            let parameter = accessor.parameters?.name.text ?? (isWillSet ? "newValue" : "oldValue")
            let statements = accessor.body?.statements
            let body = statements?.trimmedDescription ?? ""
            let usesParameter =
                statements?.tokens(viewMode: .sourceAccurate).contains { token in
                    token.tokenKind == .identifier(parameter)
                } ?? false
            let observer = Observer(parameter: parameter, body: body, usesOldValue: usesParameter)
            if isWillSet {
                willSet = observer
            } else {
                didSet = observer
            }
        }
    }
}
