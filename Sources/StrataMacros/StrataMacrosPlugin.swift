import SwiftSyntaxMacros

#if !SwiftSyntaxPackage
@_spi(PluginMessage) import SwiftCompilerPluginMessageHandling
#endif

/// Maps the type names that `#externalMacro(module: "StrataMacros", type: …)` uses to their
/// implementations.
struct StrataMacroProvider {
    /// Every macro the plugin provides, by the type name the declarations in Strata use.
    static var macros: [String: any Macro.Type] {
        [
            "ModelMacro": ModelMacro.self,
            "PersistedPropertyMacro": PersistedPropertyMacro.self,
            "AttributeMacro": AttributeMacro.self,
            "RelationshipMacro": RelationshipMacro.self,
            "TransientMacro": TransientMacro.self,
            "IndexMacro": IndexMacro.self,
            "UniqueMacro": UniqueMacro.self,
            "ModelActorMacro": ModelActorMacro.self,
            "PredicateMacro": PredicateMacro.self,
            "ExpressionClosureMacro": ExpressionClosureMacro.self,
        ]
    }
}

#if !SwiftSyntaxPackage
// The toolchain build's message listener asks a provider for each macro (SwiftCompilerPlugin does it by type name).
extension StrataMacroProvider: PluginProvider {
    func resolveMacro(moduleName: String, typeName: String) throws -> any Macro.Type {
        guard let macro = Self.macros[typeName] else {
            throw UnknownMacroError(moduleName: moduleName, typeName: typeName)
        }
        return macro
    }
}

/// The compiler asked for a macro the plugin does not provide.
struct UnknownMacroError: Error, CustomStringConvertible {
    let moduleName: String
    let typeName: String
    var description: String { "StrataMacros has no macro named \(moduleName).\(typeName)" }
}
#endif
