extension ModelContainer: Equatable {
    /// Whether two values are the same container (containers are reference types).
    public static func == (lhs: ModelContainer, rhs: ModelContainer) -> Bool { lhs === rhs }
}

extension ModelContext: Equatable {
    /// Whether two values are the same context (contexts are reference types).
    public static func == (lhs: ModelContext, rhs: ModelContext) -> Bool { lhs === rhs }
}
