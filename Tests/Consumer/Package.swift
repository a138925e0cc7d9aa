// swift-tools-version: 6.2
// A package that depends on Strata the two ways the README shows, to prove both build: by URL on a tagged release
// (STRATA_RELEASE_URL, a Git repository holding the tag 0.1.0), or by path on a checkout (STRATA_PACKAGE_PATH),
// taking the `SwiftData` product on Linux only as an app that also builds for Apple's platforms does.
// Scripts/consumer-check.sh sets one or the other.
import Foundation
import PackageDescription

let environment = ProcessInfo.processInfo.environment
let strata: Package.Dependency
let swiftData: Target.Dependency
if let path = environment["STRATA_PACKAGE_PATH"], !path.isEmpty {
    strata = .package(path: path)
    swiftData = .product(name: "SwiftData", package: "Strata", condition: .when(platforms: [.linux]))
} else if let url = environment["STRATA_RELEASE_URL"], !url.isEmpty {
    strata = .package(url: url, from: "0.1.0")
    swiftData = .product(name: "SwiftData", package: "Strata")
} else {
    fatalError(
        "Set STRATA_RELEASE_URL to a Git repository holding a Strata release tagged 0.1.0 or later, "
            + "or STRATA_PACKAGE_PATH to a checkout of Strata.")
}

let package = Package(
    name: "Consumer",
    dependencies: [strata],
    targets: [
        .executableTarget(name: "Consumer", dependencies: [swiftData])
    ],
    swiftLanguageModes: [.v6]
)
