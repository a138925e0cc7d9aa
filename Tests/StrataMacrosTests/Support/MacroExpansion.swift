import SwiftDiagnostics
import SwiftParser
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros

@testable import StrataMacros

/// One diagnostic a macro produced, reduced to what the tests assert: where and what.
struct ReportedDiagnostic: Equatable, CustomStringConvertible {
    let line: Int
    let column: Int
    let message: String
    let fixIts: [String]

    init(line: Int, column: Int, _ message: String, fixIts: [String] = []) {
        self.line = line
        self.column = column
        self.message = message
        self.fixIts = fixIts
    }

    var description: String { "\(line):\(column) \(message) \(fixIts)" }
}

/// The result of expanding Strata's macros in a piece of source.
struct Expansion {
    let source: String
    let diagnostics: [ReportedDiagnostic]
}

/// Every Strata macro under the name users write, with the conformances the declarations list.
let strataMacros: [String: MacroSpec] = [
    "Model": MacroSpec(type: ModelMacro.self, conformances: ["PersistentModel", "Observable", "Sendable"]),
    "_PersistedProperty": MacroSpec(type: PersistedPropertyMacro.self),
    "Attribute": MacroSpec(type: AttributeMacro.self),
    "Relationship": MacroSpec(type: RelationshipMacro.self),
    "Transient": MacroSpec(type: TransientMacro.self),
    "Index": MacroSpec(type: IndexMacro.self),
    "Unique": MacroSpec(type: UniqueMacro.self),
    "ModelActor": MacroSpec(type: ModelActorMacro.self, conformances: ["ModelActor"]),
    "Predicate": MacroSpec(type: PredicateMacro.self),
    "Expression": MacroSpec(type: ExpressionClosureMacro.self),
]

/// Expands `source` with the named subset of `strataMacros` (all of them by default), the way the
/// compiler would, and collects the diagnostics with their line and column in `source`.
func expand(_ source: String, only names: Set<String>? = nil) -> Expansion {
    expand(source, specs: strataMacros.filter { names?.contains($0.key) ?? true })
}

/// Expands `source` with exactly the macros in `specs`.
func expand(_ source: String, specs: [String: MacroSpec]) -> Expansion {
    let file = Parser.parse(source: source)
    let shared = BasicMacroExpansionContext(
        sourceFiles: [file: .init(moduleName: "Test", fullFilePath: "Test.swift")]
    )
    let expanded = file.expand(
        macroSpecs: specs,
        contextGenerator: { node in
            BasicMacroExpansionContext(sharingWith: shared, lexicalContext: node.allMacroLexicalContexts())
        },
        indentationWidth: .spaces(4)
    )
    let diagnostics = shared.diagnostics.map { diagnostic in
        let location = shared.location(for: diagnostic.position, anchoredAt: diagnostic.node, fileName: "Test.swift")
        return ReportedDiagnostic(
            line: location.line, column: location.column, diagnostic.message,
            fixIts: diagnostic.fixIts.map(describe))
    }
    return Expansion(source: expanded.description, diagnostics: diagnostics)
}

/// A fix-it as "message → replacement text", so tests check what the fix-it would write.
private func describe(_ fixIt: FixIt) -> String {
    let replacements = fixIt.changes.compactMap { change -> String? in
        switch change {
        case .replace(_, let newNode): newNode.trimmedDescription
        case .replaceText(_, let text, _): text
        default: nil
        }
    }
    return ([fixIt.message.message] + replacements).joined(separator: " → ")
}

/// The macros `@Model` works with, without `@_PersistedProperty`, so expansions show where
/// `@Model` adds that attribute rather than its accessors.
let modelMacrosOnly: Set<String> = ["Model", "Index", "Unique", "Attribute", "Relationship", "Transient"]

/// The members every `@Model` expansion ends with (observation plumbing) and its three
/// conformance extensions, as the expansion prints them for `className`.
func observationMembersAndConformances(_ className: String) -> String {
    """
        public nonisolated var _$observationRegistrar: Observation.ObservationRegistrar {
            persistentBackingData.observationRegistrar
        }

        internal nonisolated func access<_Member>(keyPath: KeyPath<\(className), _Member>) {
            persistentBackingData.access(self, keyPath: keyPath)
        }

        internal nonisolated func withMutation<_Member, _MutationResult>(\
    keyPath: KeyPath<\(className), _Member>, _ mutation: () throws -> _MutationResult) rethrows -> _MutationResult {
            try persistentBackingData.withMutation(of: self, keyPath: keyPath, mutation)
        }

        nonisolated static let _$strataEquality = Strata._ModelEquality()

        @_implements(Swift.Equatable, ==(_:_:))
        public nonisolated static func _$strataEquals(_ lhs: \(className), _ rhs: \(className)) -> Bool {
            _$strataEquality.equals(lhs, rhs) {
                $0 == $1
            }
        }
    }

    extension \(className): nonisolated Strata.PersistentModel {
    }

    extension \(className): nonisolated Observation.Observable {
    }

    extension \(className): @unchecked Swift.Sendable {
    }
    """
}
