import Foundation
extension ResultsObserver where SectionTitle == Never {
    /// Observes the models a descriptor describes, in a context used on the main actor.
    ///
    /// ```swift
    /// let observer = ResultsObserver(fetchDescriptor: FetchDescriptor<Book>(), modelContext: container.mainContext)
    /// ```
    public convenience init(fetchDescriptor: FetchDescriptor<Element>, modelContext: ModelContext) {
        self.init(context: modelContext, descriptor: fetchDescriptor, sectionKeyPath: nil, sectionSort: nil)
    }

    /// Observes the models matching a predicate, in an order, in a context used on the main actor.
    public convenience init(filterBy: Predicate<Element>? = nil, sortBy: [SortDescriptor<Element>] = [],
                            modelContext: ModelContext) {
        self.init(fetchDescriptor: FetchDescriptor(predicate: filterBy, sortBy: sortBy), modelContext: modelContext)
    }

    /// Observes the models a descriptor describes, in a new context of its own on `modelContainer`.
    public convenience init(fetchDescriptor: FetchDescriptor<Element>, modelContainer: ModelContainer) {
        self.init(fetchDescriptor: fetchDescriptor, modelContext: ModelContext(modelContainer))
    }

    /// Observes the models matching a predicate, in an order, in a new context of its own on `modelContainer`.
    public convenience init(filterBy: Predicate<Element>? = nil, sortBy: [SortDescriptor<Element>] = [],
                            modelContainer: ModelContainer) {
        self.init(filterBy: filterBy, sortBy: sortBy, modelContext: ModelContext(modelContainer))
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
                            modelContext: ModelContext) {
        self.init(context: modelContext, descriptor: fetchDescriptor, sectionKeyPath: sectionBy,
                  sectionSort: SortDescriptor(sectionBy))
    }

    /// Observes the models matching a predicate, grouped into sections by the title `sectionBy` reads.
    public convenience init(filterBy: Predicate<Element>? = nil, sortBy: [SortDescriptor<Element>] = [],
                            sectionBy: any KeyPath<Element, SectionTitle> & Sendable, modelContext: ModelContext) {
        self.init(fetchDescriptor: FetchDescriptor(predicate: filterBy, sortBy: sortBy), sectionBy: sectionBy,
                  modelContext: modelContext)
    }

    /// Observes the models a descriptor describes, in sections, in a new context of its own on `modelContainer`.
    public convenience init(fetchDescriptor: FetchDescriptor<Element>, sectionBy: any KeyPath<Element, SectionTitle> & Sendable,
                            modelContainer: ModelContainer) {
        self.init(fetchDescriptor: fetchDescriptor, sectionBy: sectionBy, modelContext: ModelContext(modelContainer))
    }

    /// Observes the models matching a predicate, in sections, in a new context of its own on `modelContainer`.
    public convenience init(filterBy: Predicate<Element>? = nil, sortBy: [SortDescriptor<Element>] = [],
                            sectionBy: any KeyPath<Element, SectionTitle> & Sendable, modelContainer: ModelContainer) {
        self.init(filterBy: filterBy, sortBy: sortBy, sectionBy: sectionBy, modelContext: ModelContext(modelContainer))
    }
}
