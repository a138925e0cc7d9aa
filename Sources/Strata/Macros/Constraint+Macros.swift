/// Declares the database indices of a ``Model()`` class: each argument is one index over one or
/// more properties.
///
/// ```swift
/// #Index<Book>([\.title], [\.author, \.publisher])
/// ```
///
/// Declare it once per class, inside the class, naming that class as the generic argument.
@freestanding(declaration, names: named(_$strataIndices))
public macro Index<T>(_ indices: [PartialKeyPath<T>]...) = #externalMacro(module: "StrataMacros", type: "IndexMacro")

/// Declares the database indices of a ``Model()`` class, each of a kind: `.binary([…])` or `.rtree([…])` over one
/// or more properties (see ``Schema/Index/Types``).
///
/// ```swift
/// #Index<Place>(.binary([\.name]), .rtree([\.latitude, \.longitude]))
/// ```
///
/// Strata creates an ordinary index for either kind (see ``Schema/Index/Types/rtree(_:)``).
@freestanding(declaration, names: named(_$strataIndices))
public macro Index<T: PersistentModel>(_ indices: Schema.Index<T>.Types<T>...) =
    #externalMacro(module: "StrataMacros", type: "IndexMacro")

/// Declares the uniqueness constraints of a ``Model()`` class: each argument is one set of
/// properties whose combined values must be unique.
///
/// ```swift
/// #Unique<Book>([\.isbn], [\.title, \.author])
/// ```
///
/// Declare it once per class, inside the class, naming that class as the generic argument.
@freestanding(declaration, names: named(_$strataUniqueConstraints))
public macro Unique<T>(_ constraints: [PartialKeyPath<T>]...) =
    #externalMacro(module: "StrataMacros", type: "UniqueMacro")
