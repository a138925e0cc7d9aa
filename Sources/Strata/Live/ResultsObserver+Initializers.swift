import Foundation

extension ResultsObserver where SectionTitle == Never {
    /// Observes the models a descriptor describes, in a context used on the observer's actor: `isolation`, the
    /// caller's by default, where the observer is read and refreshed.
    ///
    /// ```swift
    /// let observer = try ResultsObserver(fetchDescriptor: FetchDescriptor<Book>(), modelContext: container.mainContext)
    /// ```
    ///
    /// - Throws: `StrataError` when the first fetch fails (an entity not in the container's schema, a predicate
    ///   the store can't run, a store failure); later refresh failures are published in `fetchError`.
    public convenience init(
        fetchDescriptor: FetchDescriptor<Element> = FetchDescriptor<Element>(), modelContext: ModelContext,
        isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(
            context: modelContext, descriptor: fetchDescriptor, sectionKeyPath: nil, sectionSort: nil,
            isolation: isolation)
    }

    /// Observes the models matching a predicate, in an order, in a context used on the observer's actor.
    ///
    /// - Throws: `StrataError` when the first fetch fails (an entity not in the container's schema, a predicate
    ///   the store can't run, a store failure); later refresh failures are published in `fetchError`.
    public convenience init(
        filterBy: Predicate<Element>? = nil, sortBy: [SortDescriptor<Element>]? = nil,
        modelContext: ModelContext,
        isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(
            fetchDescriptor: FetchDescriptor(predicate: filterBy, sortBy: sortBy ?? []), modelContext: modelContext,
            isolation: isolation)
    }

    /// Observes the models a descriptor describes, in a new context of its own on `modelContainer`.
    ///
    /// - Throws: `StrataError` when the first fetch fails (an entity not in the container's schema, a predicate
    ///   the store can't run, a store failure); later refresh failures are published in `fetchError`.
    public convenience init(
        fetchDescriptor: FetchDescriptor<Element> = FetchDescriptor<Element>(), modelContainer: ModelContainer,
        isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(
            fetchDescriptor: fetchDescriptor, modelContext: ModelContext(modelContainer),
            isolation: isolation)
    }

    /// Observes the models matching a predicate, in an order, in a new context of its own on `modelContainer`.
    ///
    /// - Throws: `StrataError` when the first fetch fails (an entity not in the container's schema, a predicate
    ///   the store can't run, a store failure); later refresh failures are published in `fetchError`.
    public convenience init(
        filterBy: Predicate<Element>? = nil, sortBy: [SortDescriptor<Element>]? = nil,
        modelContainer: ModelContainer,
        isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(
            filterBy: filterBy, sortBy: sortBy, modelContext: ModelContext(modelContainer),
            isolation: isolation)
    }
}

extension ResultsObserver where SectionTitle: Comparable {
    /// Observes the models a descriptor describes, grouped into sections by the title `sectionBy` reads.
    ///
    /// The section title sorts first (ascending), unless the descriptor's first sort descriptor already sorts by
    /// it; so each section's models are consecutive and sections come in title order.
    ///
    /// ```swift
    /// let byAuthor = try ResultsObserver(fetchDescriptor: FetchDescriptor<Book>(sortBy: [SortDescriptor(\.title)]),
    ///                                sectionBy: \.author, modelContext: container.mainContext)
    /// ```
    ///
    /// - Throws: `StrataError` when the first fetch fails (an entity not in the container's schema, a predicate
    ///   the store can't run, a store failure); later refresh failures are published in `fetchError`.
    public convenience init(
        fetchDescriptor: FetchDescriptor<Element> = FetchDescriptor<Element>(),
        sectionBy: any KeyPath<Element, SectionTitle> & Sendable,
        modelContext: ModelContext,
        isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(
            context: modelContext, descriptor: fetchDescriptor, sectionKeyPath: sectionBy,
            sectionSort: SortDescriptor(sectionBy), isolation: isolation)
    }

    /// Observes the models matching a predicate, grouped into sections by the title `sectionBy` reads.
    ///
    /// - Throws: `StrataError` when the first fetch fails (an entity not in the container's schema, a predicate
    ///   the store can't run, a store failure); later refresh failures are published in `fetchError`.
    public convenience init(
        filterBy: Predicate<Element>? = nil, sortBy: [SortDescriptor<Element>]? = nil,
        sectionBy: any KeyPath<Element, SectionTitle> & Sendable, modelContext: ModelContext,
        isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(
            fetchDescriptor: FetchDescriptor(predicate: filterBy, sortBy: sortBy ?? []), sectionBy: sectionBy,
            modelContext: modelContext,
            isolation: isolation)
    }

    /// Observes the models a descriptor describes, in sections, in a new context of its own on `modelContainer`.
    ///
    /// - Throws: `StrataError` when the first fetch fails (an entity not in the container's schema, a predicate
    ///   the store can't run, a store failure); later refresh failures are published in `fetchError`.
    public convenience init(
        fetchDescriptor: FetchDescriptor<Element> = FetchDescriptor<Element>(),
        sectionBy: any KeyPath<Element, SectionTitle> & Sendable,
        modelContainer: ModelContainer,
        isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(
            fetchDescriptor: fetchDescriptor, sectionBy: sectionBy, modelContext: ModelContext(modelContainer),
            isolation: isolation)
    }

    /// Observes the models matching a predicate, in sections, in a new context of its own on `modelContainer`.
    ///
    /// - Throws: `StrataError` when the first fetch fails (an entity not in the container's schema, a predicate
    ///   the store can't run, a store failure); later refresh failures are published in `fetchError`.
    public convenience init(
        filterBy: Predicate<Element>? = nil, sortBy: [SortDescriptor<Element>]? = nil,
        sectionBy: any KeyPath<Element, SectionTitle> & Sendable, modelContainer: ModelContainer,
        isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(
            filterBy: filterBy, sortBy: sortBy, sectionBy: sectionBy, modelContext: ModelContext(modelContainer),
            isolation: isolation)
    }
}
