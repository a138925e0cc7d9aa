#if STRATA_TOOLCHAIN_SWIFT_SYNTAX_MISSING
#error(
    """
    Strata's macros need swift-syntax, and the toolchain's copy (usr/lib/swift/host/SwiftSyntax.swiftmodule next \
    to the compiler SwiftPM runs) was not found. Set STRATA_SWIFT_SYNTAX_DIR to the folder holding it, or build \
    with the swift-syntax package instead: `--traits SwiftSyntaxPackage` (or `traits: ["SwiftSyntaxPackage"]` on \
    the dependency).
    """
)
#elseif SwiftSyntaxPackage
import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The plugin's entry point when built against the swift-syntax package: `SwiftCompilerPlugin` speaks the
/// compiler's message protocol.
@main
struct StrataMacrosMain: CompilerPlugin {
    let providingMacros: [any Macro.Type] = Array(StrataMacroProvider.macros.values)
}
#else
@_spi(PluginMessage) import SwiftCompilerPluginMessageHandling

/// The plugin's entry point when built against the toolchain's swift-syntax modules, which include no
/// `SwiftCompilerPlugin`: the plugin speaks the compiler's message protocol over standard input and output itself.
@main
enum StrataMacrosMain {
    static func main() {
        do {
            let connection = try StandardIOMessageConnection()
            let listener = CompilerPluginMessageListener(connection: connection, provider: StrataMacroProvider())
            try listener.main()
        } catch {
            var standardError = StandardErrorStream()
            print("StrataMacros: \(error)", to: &standardError)
        }
    }
}
#endif
