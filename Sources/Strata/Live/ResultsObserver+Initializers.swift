import Foundation
extension ResultsObserver where SectionTitle == Never {
    /// Observes the models a descriptor describes, in a context used on the observer's actor: `isolation`, the
    /// caller's by default, where the observer is read and refreshed.
    ///
    /// ```swift
    /// let observer = ResultsObserver(fetchDescriptor: FetchDescriptor<Book>(), modelContext: container.mainContext)
    /// ```
    public convenience init(fetchDescriptor: FetchDescriptor<Element>, modelContext: ModelContext,
                            isolation: isolated (any Actor)? = #isolation) {
        self.init(context: modelContext, descriptor: fetchDescriptor, sectionKeyPath: nil, sectionSort: nil,
                  isolation: isolation)
    }

    /// Observes the models matching a predicate, in an order, in a context used on the observer's actor.
    public convenience init(filterBy: Predicate<Element>? = nil, sortBy: [SortDescriptor<Element>] = [],
                            modelContext: ModelContext,
                            isolation: isolated (any Actor)? = #isolation) {
        self.init(fetchDescriptor: FetchDescriptor(predicate: filterBy, sortBy: sortBy), modelContext: modelContext,
                  isolation: isolation)
    }

    /// Observes the models a descriptor describes, in a new context of its own on `modelContainer`.
    public convenience init(fetchDescriptor: FetchDescriptor<Element>, modelContainer: ModelContainer,
                            isolation: isolated (any Actor)? = #isolation) {
        self.init(fetchDescriptor: fetchDescriptor, modelContext: ModelContext(modelContainer),
                  isolation: isolation)
    }

    /// Observes the models matching a predicate, in an order, in a new context of its own on `modelContainer`.
    public convenience init(filterBy: Predicate<Element>? = nil, sortBy: [SortDescriptor<Element>] = [],
                            modelContainer: ModelContainer,
                            isolation: isolated (any Actor)? = #isolation) {
        self.init(filterBy: filterBy, sortBy: sortBy, modelContext: ModelContext(modelContainer),
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
    /// let byAuthor = ResultsObserver(fetchDescriptor: FetchDescriptor<Book>(sortBy: [SortDescriptor(\.title)]),
    ///                                sectionBy: \.author, modelContext: container.mainContext)
    /// ```
    public convenience init(fetchDescriptor: FetchDescriptor<Element>, sectionBy: any KeyPath<Element, SectionTitle> & Sendable,
                            modelContext: ModelContext,
                            isolation: isolated (any Actor)? = #isolation) {
        self.init(context: modelContext, descriptor: fetchDescriptor, sectionKeyPath: sectionBy,
                  sectionSort: SortDescriptor(sectionBy), isolation: isolation)
    }

    /// Observes the models matching a predicate, grouped into sections by the title `sectionBy` reads.
    public convenience init(filterBy: Predicate<Element>? = nil, sortBy: [SortDescriptor<Element>] = [],
                            sectionBy: any KeyPath<Element, SectionTitle> & Sendable, modelContext: ModelContext,
                            isolation: isolated (any Actor)? = #isolation) {
        self.init(fetchDescriptor: FetchDescriptor(predicate: filterBy, sortBy: sortBy), sectionBy: sectionBy,
                  modelContext: modelContext,
                  isolation: isolation)
    }

    /// Observes the models a descriptor describes, in sections, in a new context of its own on `modelContainer`.
    public convenience init(fetchDescriptor: FetchDescriptor<Element>, sectionBy: any KeyPath<Element, SectionTitle> & Sendable,
                            modelContainer: ModelContainer,
                            isolation: isolated (any Actor)? = #isolation) {
        self.init(fetchDescriptor: fetchDescriptor, sectionBy: sectionBy, modelContext: ModelContext(modelContainer),
                  isolation: isolation)
    }

    /// Observes the models matching a predicate, in sections, in a new context of its own on `modelContainer`.
    public convenience init(filterBy: Predicate<Element>? = nil, sortBy: [SortDescriptor<Element>] = [],
                            sectionBy: any KeyPath<Element, SectionTitle> & Sendable, modelContainer: ModelContainer,
                            isolation: isolated (any Actor)? = #isolation) {
        self.init(filterBy: filterBy, sortBy: sortBy, sectionBy: sectionBy, modelContext: ModelContext(modelContainer),
                  isolation: isolation)
    }
}
