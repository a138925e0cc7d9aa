import SwiftSyntax

extension ModelMacro {
    /// The standard library's protocols with binary operator requirements a model may state in its own clause, the
    /// protocols each implies (`Strideable` is `Comparable`), and each requirement with the name of its witness.
    private static let operatorRequirements: [String: [(operator: String, witness: String)]] = [
        "Comparable": [
            ("<", "LessThan"), ("<=", "LessThanOrEqual"), (">", "GreaterThan"), (">=", "GreaterThanOrEqual"),
        ],
        "AdditiveArithmetic": [("+", "Add"), ("-", "Subtract"), ("+=", "AddAssign"), ("-=", "SubtractAssign")],
        "Numeric": [("*", "Multiply"), ("*=", "MultiplyAssign")],
    ]
    private static let impliedProtocols: [String: [String]] = [
        "Strideable": ["Comparable"],
        "Numeric": ["AdditiveArithmetic"],
        "SignedNumeric": ["Numeric", "AdditiveArithmetic"],
    ]

    /// A named witness for each operator the class declares in its body that is a requirement of a protocol its
    /// own clause states (`@Model final class Course: Comparable { static func < … }`).
    ///
    /// For a conformance stated in the clause of a class with macro-added members, Swift finds the class's own
    /// operator twice when it looks for the requirement's witness and reports "multiple matching functions named
    /// '<'". `@_implements` names the witness directly, so that lookup never runs; the witness calls the
    /// operator on the class, which is the app's own (a concrete operator is chosen over the requirement).
    static func operatorWitnesses(_ model: ModelDescription, declaration: ClassDeclSyntax) -> [DeclSyntax] {
        guard !model.ownOperators.isEmpty else { return [] }
        var stated: Set<String> = []
        for inherited in declaration.inheritanceClause?.inheritedTypes ?? [] {
            let name = inherited.type.trimmedDescription.split(separator: ".").last.map(String.init) ?? ""
            stated.insert(name)
            stated.formUnion(impliedProtocols[name] ?? [])
        }
        let isolation = hasGlobalActor(declaration) ? "" : "nonisolated "
        var witnesses: [DeclSyntax] = []
        var witnessed: Set<String> = []
        for own in model.ownOperators where witnessed.insert(own.name).inserted {
            guard
                let (proto, requirement) = operatorRequirements.lazy.compactMap({ proto, requirements in
                    requirements.first { $0.operator == own.name }.map { (proto, $0) }
                }).first,
                stated.contains(proto)
            else { continue }
            witnesses.append(
                """
                @_implements(Swift.\(raw: proto), \(raw: own.name)(_:_:))
                \(raw: own.access)\(raw: isolation)static func _$strata\(raw: requirement.witness)(\
                _ lhs: \(raw: own.parameterTypes.0), _ rhs: \(raw: own.parameterTypes.1))\(raw: own.returnClause) {
                lhs \(raw: own.name) rhs
                }
                """)
        }
        return witnesses
    }
}
