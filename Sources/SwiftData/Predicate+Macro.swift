// `#Predicate` and `#Expression` for code written for SwiftData. Foundation's macros on Linux refuse
// `expression.evaluate($0)`, which Apple's accept; these write the same expression tree as Foundation's and accept
// it. Each takes one input, and Swift prefers a one-input declaration over Foundation's variadic one, so
// `import SwiftData` code uses these; a predicate or expression of two or more inputs uses Foundation's.

/// Makes a `Predicate` from a closure over one input, as Foundation's `#Predicate` does, with `evaluate(_:)` of an
/// `Expression` allowed in it as on Apple's platforms.
///
/// ```swift
/// let quick = #Expression<Recipe, Bool> { $0.minutes <= 20 }
/// let predicate = #Predicate<Recipe> { quick.evaluate($0) && $0.cuisine == "Italian" }
/// ```
@freestanding(expression)
public macro Predicate<Input>(_ body: (Input) -> Bool) -> Predicate<Input> =
    #externalMacro(module: "StrataMacros", type: "PredicateMacro")

/// Makes an `Expression` from a closure over one input, as Foundation's `#Expression` does, with `evaluate(_:)` of
/// another `Expression` allowed in it as on Apple's platforms.
///
/// ```swift
/// let titleLength = #Expression<Recipe, Int> { $0.title.count }
/// ```
@freestanding(expression)
public macro Expression<Input, Output>(_ body: (Input) -> Output) -> Expression<Input, Output> =
    #externalMacro(module: "StrataMacros", type: "ExpressionClosureMacro")
