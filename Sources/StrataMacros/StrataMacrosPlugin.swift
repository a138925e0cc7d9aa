@_spi(PluginMessage) import SwiftCompilerPluginMessageHandling
import SwiftSyntaxMacros

/// Maps the type names that `#externalMacro(module: "StrataMacros", type: …)` uses to their
/// implementations.
struct StrataMacroProvider: PluginProvider {
    func resolveMacro(moduleName: String, typeName: String) throws -> any Macro.Type {
        let macros: [String: any Macro.Type] = [
            "ModelMacro": ModelMacro.self,
        ]
        guard let macro = macros[typeName] else {
            throw UnknownMacroError(moduleName: moduleName, typeName: typeName)
        }
        return macro
    }
}

struct UnknownMacroError: Error, CustomStringConvertible {
    let moduleName: String
    let typeName: String
    var description: String { "StrataMacros has no macro named \(moduleName).\(typeName)" }
}
