// swift-tools-version: 6.2
import CompilerPluginSupport
import Foundation
import PackageDescription

#if canImport(Darwin)
import Darwin
#endif

// StrataMacros builds against swift-syntax in one of two ways, chosen by package trait:
// - `ToolchainSwiftSyntax` (the default): the swift-syntax modules and libraries the toolchain ships for its own
//   macro plugins (`usr/lib/swift/host`). No dependency is fetched, so an offline machine builds in one command.
// - `SwiftSyntaxPackage`: the swift-syntax package, fetched by SwiftPM like any dependency. Enable it alone
//   (`--traits SwiftSyntaxPackage`, or `traits: ["SwiftSyntaxPackage"]` on the dependency), which drops the default.
let toolchainTrait: Set<String> = ["ToolchainSwiftSyntax"]
let packageTrait: Set<String> = ["SwiftSyntaxPackage"]

/// The toolchain folder holding the host swift-syntax modules, found from the compiler SwiftPM runs rather than the
/// `swiftc` first on `PATH` (a wrapper or a shim there may belong to another toolchain, or to none).
///
/// `STRATA_SWIFT_SYNTAX_DIR` overrides it. Otherwise the manifest looks where its own PackageDescription library
/// was loaded from (`<toolchain>/usr/lib/swift/pm/ManifestAPI`): SwiftPM links the manifest against the
/// PackageDescription of its own toolchain, the one whose compiler then builds the package. `SWIFT_EXEC`, when set,
/// names that compiler directly and is tried next; the `swiftc` on `PATH` is the last resort.
func toolchainSwiftSyntaxDirectory() -> String? {
    let environment = ProcessInfo.processInfo.environment
    if let override = environment["STRATA_SWIFT_SYNTAX_DIR"], !override.isEmpty {
        return override
    }
    var candidates: [URL] = []
    if let library = packageDescriptionLibraryPath() {
        candidates.append(
            URL(fileURLWithPath: library)
                .deletingLastPathComponent() // usr/lib/swift/pm/ManifestAPI
                .deletingLastPathComponent() // usr/lib/swift/pm
                .deletingLastPathComponent() // usr/lib/swift
                .appendingPathComponent("host"))
    }
    if let compiler = environment["SWIFT_EXEC"], !compiler.isEmpty {
        candidates.append(
            URL(fileURLWithPath: compiler).resolvingSymlinksInPath()
                .deletingLastPathComponent() // usr/bin
                .deletingLastPathComponent() // usr
                .appendingPathComponent("lib/swift/host"))
    }
    // Last, the `swiftc` found on `PATH`: only when neither of the above names a toolchain with the modules.
    for directory in (environment["PATH"] ?? "").split(separator: ":") {
        let compiler = URL(fileURLWithPath: String(directory)).appendingPathComponent("swiftc")
        guard FileManager.default.isExecutableFile(atPath: compiler.path) else { continue }
        candidates.append(
            compiler.resolvingSymlinksInPath()
                .deletingLastPathComponent() // usr/bin
                .deletingLastPathComponent() // usr
                .appendingPathComponent("lib/swift/host"))
    }
    return candidates.first {
        FileManager.default.fileExists(atPath: $0.appendingPathComponent("SwiftSyntax.swiftmodule").path)
    }?.path
}

/// The path of the PackageDescription library this manifest runs with.
func packageDescriptionLibraryPath() -> String? {
    #if canImport(Darwin)
    var info = Dl_info()
    let metadata = unsafeBitCast(Package.self as AnyClass, to: UnsafeRawPointer.self)
    guard dladdr(metadata, &info) != 0, let name = info.dli_fname else { return nil }
    return String(cString: name)
    #else
    // Glibc's dladdr is not visible to Swift; the loader's own map of the process names every loaded library.
    // Read to the end through a file handle: procfs reports a size of 0, so size-first reads may come back short.
    guard let handle = FileHandle(forReadingAtPath: "/proc/self/maps"),
        let data = try? handle.readToEnd(), let maps = String(data: data, encoding: .utf8)
    else { return nil }
    for line in maps.split(separator: "\n") {
        guard let slash = line.firstIndex(of: "/") else { continue }
        let path = line[slash...]
        if path.hasSuffix("/libPackageDescription.so") { return String(path) }
    }
    return nil
    #endif
}

let swiftSyntaxDirectory = toolchainSwiftSyntaxDirectory()
let swiftSyntaxCompilerFlags: [SwiftSetting]
let swiftSyntaxLinkerFlags: [LinkerSetting]
if let swiftSyntaxDirectory {
    swiftSyntaxCompilerFlags = [.unsafeFlags(["-I", swiftSyntaxDirectory], .when(traits: toolchainTrait))]
    swiftSyntaxLinkerFlags =
        [
            .unsafeFlags(
                ["-L", swiftSyntaxDirectory, "-Xlinker", "-rpath", "-Xlinker", swiftSyntaxDirectory],
                .when(traits: toolchainTrait))
        ]
        + [
            "SwiftSyntax", "SwiftSyntaxMacros", "SwiftSyntaxBuilder", "SwiftDiagnostics", "SwiftParser",
            "SwiftBasicFormat", "SwiftOperators", "SwiftParserDiagnostics", "SwiftSyntaxMacroExpansion",
            "SwiftCompilerPluginMessageHandling",
        ].map { .linkedLibrary($0, .when(traits: toolchainTrait)) }
} else {
    // Which trait is on is only known when building, so a missing folder fails the toolchain build there, with a
    // message (`StrataMacrosMain.swift`) naming both ways out, instead of failing the manifest for everyone.
    swiftSyntaxCompilerFlags = [.define("STRATA_TOOLCHAIN_SWIFT_SYNTAX_MISSING", .when(traits: toolchainTrait))]
    swiftSyntaxLinkerFlags = []
}

/// The swift-syntax products a target uses when the `SwiftSyntaxPackage` trait is on.
func swiftSyntaxProducts(_ names: [String]) -> [Target.Dependency] {
    names.map { .product(name: $0, package: "swift-syntax", condition: .when(traits: packageTrait)) }
}

let package = Package(
    name: "Strata",
    // What the code needs: `Synchronization.Mutex` and `Atomic` (macOS 15, iOS 18 and their siblings), Observation.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2), .macCatalyst(.v18)],
    products: [
        .library(name: "Strata", targets: ["Strata"]),
        .library(name: "StrataState", targets: ["StrataState"]),
        .library(name: "StrataPostgres", targets: ["StrataPostgres"]),
        .library(name: "StrataSync", targets: ["StrataSync"]),
        .library(name: "SwiftData", targets: ["SwiftData"]),
        .executable(name: "strata-example", targets: ["strata-example"]),
        .executable(name: "bookshelf", targets: ["bookshelf"]),
        .executable(name: "strata-bench", targets: ["strata-bench"]),
        .executable(name: "strata-torture", targets: ["strata-torture"]),
    ],
    traits: [
        .trait(
            name: "ToolchainSwiftSyntax",
            description: "Builds the macros against the swift-syntax modules the toolchain ships (no download)."),
        .trait(
            name: "SwiftSyntaxPackage",
            description: "Builds the macros against the swift-syntax package, fetched as a dependency."),
        .default(enabledTraits: ["ToolchainSwiftSyntax"]),
    ],
    dependencies: [
        // Fetched only when the SwiftSyntaxPackage trait is on: SwiftPM skips a dependency no enabled trait uses.
        .package(url: "https://github.com/swiftlang/swift-syntax.git", "600.0.0"..<"700.0.0")
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
            dependencies: swiftSyntaxProducts([
                "SwiftSyntax", "SwiftSyntaxMacros", "SwiftSyntaxBuilder", "SwiftDiagnostics", "SwiftParser",
                "SwiftCompilerPlugin",
            ]),
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
            name: "StrataSync",
            dependencies: ["Strata", "StrataPostgres"]
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
            dependencies: ["Strata", "CommandLineSupport"]
        ),
        // The tools' shared command-line handling (options, --help, --version, usage errors); no product.
        .target(name: "CommandLineSupport"),
        .target(
            name: "BookshelfCore",
            dependencies: ["Strata", "StrataState", "StrataPostgres", "StrataSync", "CommandLineSupport"]
        ),
        .executableTarget(
            name: "bookshelf",
            dependencies: ["BookshelfCore"]
        ),
        .executableTarget(
            name: "strata-bench",
            dependencies: [
                "Strata", "StrataPostgres", "StrataSync", "CSQLite", "CLibPQ", "CStrataBenchSupport",
                "CommandLineSupport",
            ]
        ),
        .executableTarget(
            name: "strata-torture",
            dependencies: ["Strata", "StrataPostgres", "StrataSync", "CommandLineSupport"]
        ),
        // The test targets' shared support: the PostgreSQL test server and the store kinds suites run against.
        .target(
            name: "StrataTestSupport",
            dependencies: ["Strata", "StrataPostgres"],
            path: "Tests/StrataTestSupport"
        ),
        // The models and store helpers the core suites and the PostgreSQL suites share.
        .target(
            name: "StrataTestFixtures",
            dependencies: ["Strata", "StrataPostgres", "StrataTestSupport"],
            path: "Tests/StrataTestFixtures"
        ),
        .testTarget(
            name: "StrataTests",
            dependencies: ["Strata", "StrataPostgres", "CSQLite", "StrataTestSupport", "StrataTestFixtures"],
            exclude: ["Reliability/Corpus"]
        ),
        // What only the PostgreSQL store does: its connection, SQL and store, mirroring Sources/StrataPostgres.
        .testTarget(
            name: "StrataPostgresTests",
            dependencies: ["Strata", "StrataPostgres", "StrataTestSupport", "StrataTestFixtures"]
        ),
        // Devices on SQLite syncing with a PostgreSQL hub, mirroring Sources/StrataSync.
        .testTarget(
            name: "StrataSyncTests",
            dependencies: ["Strata", "StrataPostgres", "StrataSync", "StrataTestSupport"]
        ),
        .testTarget(
            name: "SwiftDataCompatibilityTests",
            dependencies: ["SwiftData", "StrataPostgres", "StrataTestSupport"]
        ),
        // Predicates as long as apps write them, built with the compiler's default type-checker limits: a library
        // overload that every `#Predicate` must consider makes this target fail to compile.
        .testTarget(
            name: "PredicateTypeCheckTests",
            dependencies: ["SwiftData", "StrataTestSupport"]
        ),
        // An app's own stand-ins for names Linux lacks (autoreleasepool, .localizedStandard, Observation's continuous
        // observation), in a module of their own that also calls them itself beside SwiftData's, and the suite
        // checking that SwiftData's yield to them without ambiguity.
        .target(
            name: "AppStandIns",
            dependencies: ["SwiftData"],
            path: "Tests/AppStandIns"
        ),
        .testTarget(
            name: "StandInClashTests",
            dependencies: ["SwiftData", "AppStandIns"]
        ),
        // Built as an app target that Xcode 26 creates: main-actor isolation by default (SE-0466).
        .testTarget(
            name: "MainActorDefaultTests",
            dependencies: ["SwiftData", "StrataTestSupport"],
            swiftSettings: [.defaultIsolation(MainActor.self)]
        ),
        // The README's code blocks (generated from README.md by Scripts/readme-snippets.py): compiled, never run.
        .testTarget(
            name: "ReadmeSnippetTests",
            dependencies: ["Strata", "StrataPostgres", "StrataState", "SwiftData"]
        ),
        .testTarget(
            name: "StrataStateTests",
            dependencies: ["StrataState", "Strata", "StrataPostgres", "StrataTestSupport"]
        ),
        .testTarget(
            name: "BookshelfCoreTests",
            dependencies: ["BookshelfCore", "Strata", "StrataState", "StrataSync", "StrataTestSupport"]
        ),
        .testTarget(
            name: "CommandLineSupportTests",
            dependencies: ["CommandLineSupport"]
        ),
        .testTarget(
            name: "StrataMacrosTests",
            dependencies: ["StrataMacros"]
                + swiftSyntaxProducts([
                    "SwiftSyntax", "SwiftSyntaxMacros", "SwiftDiagnostics", "SwiftParser", "SwiftSyntaxMacroExpansion",
                ]),
            swiftSettings: swiftSyntaxCompilerFlags,
            linkerSettings: swiftSyntaxLinkerFlags
        ),
    ],
    swiftLanguageModes: [.v6]
)
