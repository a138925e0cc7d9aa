// As `import SwiftData` does, `import Strata` brings Foundation (`#Predicate`, `SortDescriptor`, `Date`, …)
// and Observation (which the code `@Model` generates uses) along.
@_exported import Foundation
@_exported import Observation
