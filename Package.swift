// swift-tools-version: 6.2
import CompilerPluginSupport
import Foundation
import PackageDescription

/// The folder holding the swift-syntax modules and libraries that the toolchain ships for its
/// own macro plugins (`usr/lib/swift/host`). `STRATA_SWIFT_SYNTAX_DIR` overrides it; otherwise it
/// is derived from the `swiftc` found on `PATH`.
func toolchainSwiftSyntaxDirectory() -> String {
    let environment = ProcessInfo.processInfo.environment
    if let override = environment["STRATA_SWIFT_SYNTAX_DIR"], !override.isEmpty {
        return override
    }
    let fileManager = FileManager.default
    for directory in (environment["PATH"] ?? "").split(separator: ":") {
        let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent("swiftc")
        guard fileManager.isExecutableFile(atPath: candidate.path) else { continue }
        let compiler = candidate.resolvingSymlinksInPath()
        let host = compiler
            .deletingLastPathComponent()   // usr/bin
            .deletingLastPathComponent()   // usr
            .appendingPathComponent("lib/swift/host")
        if fileManager.fileExists(atPath: host.appendingPathComponent("SwiftSyntax.swiftmodule").path) {
            return host.path
        }
    }
    return "/opt/swift/usr/lib/swift/host"
}

let swiftSyntaxDirectory = toolchainSwiftSyntaxDirectory()
let swiftSyntaxCompilerFlags: [SwiftSetting] = [.unsafeFlags(["-I", swiftSyntaxDirectory])]
let swiftSyntaxLinkerFlags: [LinkerSetting] = [
    .unsafeFlags([
        "-L", swiftSyntaxDirectory,
        "-Xlinker", "-rpath", "-Xlinker", swiftSyntaxDirectory,
    ]),
    .linkedLibrary("SwiftSyntax"),
    .linkedLibrary("SwiftSyntaxMacros"),
    .linkedLibrary("SwiftSyntaxBuilder"),
    .linkedLibrary("SwiftDiagnostics"),
    .linkedLibrary("SwiftParser"),
    .linkedLibrary("SwiftBasicFormat"),
    .linkedLibrary("SwiftOperators"),
    .linkedLibrary("SwiftParserDiagnostics"),
    .linkedLibrary("SwiftSyntaxMacroExpansion"),
    .linkedLibrary("SwiftCompilerPluginMessageHandling"),
]

let package = Package(
    name: "Strata",
    products: [
        .library(name: "Strata", targets: ["Strata"]),
        .library(name: "StrataState", targets: ["StrataState"]),
        .library(name: "StrataPostgres", targets: ["StrataPostgres"]),
        .library(name: "SwiftData", targets: ["SwiftData"]),
        .executable(name: "strata-example", targets: ["strata-example"]),
        .executable(name: "bookshelf", targets: ["bookshelf"]),
        .executable(name: "strata-bench", targets: ["strata-bench"]),
        .executable(name: "strata-torture", targets: ["strata-torture"]),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // libpq for StrataPostgres only: SQLite-only users never link it.
        .systemLibrary(
            name: "CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),
        .macro(
            name: "StrataMacros",
            swiftSettings: swiftSyntaxCompilerFlags,
            linkerSettings: swiftSyntaxLinkerFlags
        ),
        .target(name: "CStrataSupport"),
        // strata-bench's allocation counter (it defines malloc and friends): linked into the bench only.
        .target(name: "CStrataBenchSupport"),
        .target(
            name: "Strata",
            dependencies: ["CSQLite", "CStrataSupport", "StrataMacros"]
        ),
        .target(
            name: "StrataPostgres",
            dependencies: ["Strata", "CLibPQ"]
        ),
        .target(
            name: "SwiftData",
            dependencies: ["Strata"]
        ),
        .target(
            name: "StrataState",
            dependencies: ["Strata"]
        ),
        .executableTarget(
            name: "strata-example",
            dependencies: ["Strata"]
        ),
        .target(
            name: "BookshelfCore",
            dependencies: ["Strata", "StrataState", "StrataPostgres"]
        ),
        .executableTarget(
            name: "bookshelf",
            dependencies: ["BookshelfCore"]
        ),
        .executableTarget(
            name: "strata-bench",
            dependencies: ["Strata", "StrataPostgres", "CSQLite", "CLibPQ", "CStrataBenchSupport"]
        ),
        .executableTarget(
            name: "strata-torture",
            dependencies: ["Strata"]
        ),
        // The test targets' shared support: the PostgreSQL test server and the store kinds suites run against.
        .target(
            name: "StrataTestSupport",
            dependencies: ["Strata", "StrataPostgres"],
            path: "Tests/StrataTestSupport"
        ),
        .testTarget(
            name: "StrataTests",
            dependencies: ["Strata", "StrataPostgres", "CSQLite", "StrataTestSupport"],
            exclude: ["Reliability/Corpus"]
        ),
        .testTarget(
            name: "SwiftDataCompatibilityTests",
            dependencies: ["SwiftData", "StrataPostgres", "StrataTestSupport"]
        ),
        // Built as an app target that Xcode 26 creates: main-actor isolation by default (SE-0466).
        .testTarget(
            name: "MainActorDefaultTests",
            dependencies: ["SwiftData", "StrataTestSupport"],
            swiftSettings: [.defaultIsolation(MainActor.self)]
        ),
        .testTarget(
            name: "StrataStateTests",
            dependencies: ["StrataState", "Strata", "StrataPostgres", "StrataTestSupport"]
        ),
        .testTarget(
            name: "BookshelfCoreTests",
            dependencies: ["BookshelfCore", "Strata", "StrataState", "StrataTestSupport"]
        ),
        .testTarget(
            name: "StrataMacrosTests",
            dependencies: ["StrataMacros"],
            swiftSettings: swiftSyntaxCompilerFlags,
            linkerSettings: swiftSyntaxLinkerFlags
        ),
    ],
    swiftLanguageModes: [.v6]
)
