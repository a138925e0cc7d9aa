// The `SwiftData` module on platforms without Apple's: it re-exports Strata, so files written for SwiftData
// compile unchanged — `import SwiftData`, `@Model`, `ModelContainer`, and module-qualified names such as
// `SwiftData.Schema([...])` alike. Depend on it only where Apple's framework is missing:
//
//     .target(name: "App", dependencies: [
//         .product(name: "SwiftData", package: "Strata", condition: .when(platforms: [.linux])),
//     ])
@_exported import Strata
