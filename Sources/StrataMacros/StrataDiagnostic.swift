import SwiftDiagnostics
import SwiftSyntax

/// An error the Strata macros report against the user's source.
///
/// Every message says what is wrong and what to change, so the compiler output is actionable
/// without reading the macro's code.
struct StrataDiagnostic: DiagnosticMessage, Error {
    /// A stable identifier, used as the diagnostic's `MessageID`.
    let id: String
    let message: String
    let severity: DiagnosticSeverity

    init(_ id: String, _ message: String, severity: DiagnosticSeverity = .error) {
        self.id = id
        self.message = message
        self.severity = severity
    }

    var diagnosticID: MessageID { MessageID(domain: "StrataMacros", id: id) }
}

/// The text of a fix-it the Strata macros offer.
struct StrataFixIt: FixItMessage {
    let message: String

    init(_ message: String) {
        self.message = message
    }

    var fixItID: MessageID { MessageID(domain: "StrataMacros", id: message) }
}

extension StrataDiagnostic {
    /// Builds the diagnostic anchored at `node`, optionally carrying one fix-it.
    func at(_ node: some SyntaxProtocol, fixIt: FixIt? = nil) -> Diagnostic {
        Diagnostic(node: Syntax(node), message: self, fixIts: fixIt.map { [$0] } ?? [])
    }
}
