@_spi(PluginMessage) import SwiftCompilerPluginMessageHandling

// The toolchain ships no `SwiftCompilerPlugin` module, so the plugin speaks the compiler's
// message protocol over standard input and output itself.
do {
    let connection = try StandardIOMessageConnection()
    let listener = CompilerPluginMessageListener(connection: connection, provider: StrataMacroProvider())
    try listener.main()
} catch {
    var standardError = StandardErrorStream()
    print("StrataMacros: \(error)", to: &standardError)
}
