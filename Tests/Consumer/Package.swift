// swift-tools-version: 6.2
// A package that depends on a tagged Strata release the way an app does, to prove the release builds as a versioned
// dependency. `.ci/run` tags a bare clone of the checkout and points STRATA_RELEASE_URL at it.
import Foundation
import PackageDescription

guard let strataURL = ProcessInfo.processInfo.environment["STRATA_RELEASE_URL"], !strataURL.isEmpty else {
    fatalError("Set STRATA_RELEASE_URL to a Git repository holding a Strata release tagged 0.1.0 or later.")
}

let package = Package(
    name: "Consumer",
    dependencies: [
        .package(url: strataURL, from: "0.1.0")
    ],
    targets: [
        .executableTarget(
            name: "Consumer",
            dependencies: [.product(name: "SwiftData", package: "Strata")]
        )
    ],
    swiftLanguageModes: [.v6]
)
