import Foundation

extension ResultsObserver where SectionTitle == String? {
    /// Observes the models a descriptor describes, grouped into sections by an optional title: models whose title
    /// is `nil` form one section, which comes first.
    ///
    /// ```swift
    /// let bySeries = try ResultsObserver(fetchDescriptor: FetchDescriptor<Book>(), sectionBy: \.series,
    ///                                    modelContext: container.mainContext)
    /// ```
    ///
    /// - Throws: `StrataError` when the first fetch fails; later refresh failures are published in `fetchError`.
    public convenience init(
        fetchDescriptor: FetchDescriptor<Element> = FetchDescriptor<Element>(),
        sectionBy: any KeyPath<Element, String?> & Sendable, modelContext: ModelContext,
        isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(
            context: modelContext, descriptor: fetchDescriptor, sectionKeyPath: sectionBy,
            sectionSort: SortDescriptor(sectionBy), isolation: isolation)
    }

    /// Observes the models matching a predicate, grouped into sections by an optional title.
    ///
    /// - Throws: `StrataError` when the first fetch fails; later refresh failures are published in `fetchError`.
    public convenience init(
        filterBy: Predicate<Element>? = nil, sortBy: [SortDescriptor<Element>]? = nil,
        sectionBy: any KeyPath<Element, String?> & Sendable, modelContext: ModelContext,
        isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(
            fetchDescriptor: FetchDescriptor(predicate: filterBy, sortBy: sortBy ?? []), sectionBy: sectionBy,
            modelContext: modelContext, isolation: isolation)
    }

    /// Observes the models a descriptor describes, in sections by an optional title, in a new context of its own.
    ///
    /// - Throws: `StrataError` when the first fetch fails; later refresh failures are published in `fetchError`.
    public convenience init(
        fetchDescriptor: FetchDescriptor<Element> = FetchDescriptor<Element>(),
        sectionBy: any KeyPath<Element, String?> & Sendable, modelContainer: ModelContainer,
        isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(
            fetchDescriptor: fetchDescriptor, sectionBy: sectionBy, modelContext: ModelContext(modelContainer),
            isolation: isolation)
    }

    /// Observes the models matching a predicate, in sections by an optional title, in a new context of its own.
    ///
    /// - Throws: `StrataError` when the first fetch fails; later refresh failures are published in `fetchError`.
    public convenience init(
        filterBy: Predicate<Element>? = nil, sortBy: [SortDescriptor<Element>]? = nil,
        sectionBy: any KeyPath<Element, String?> & Sendable, modelContainer: ModelContainer,
        isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(
            filterBy: filterBy, sortBy: sortBy, sectionBy: sectionBy, modelContext: ModelContext(modelContainer),
            isolation: isolation)
    }
}
