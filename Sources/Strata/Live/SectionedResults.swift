/// A `ResultsObserver`'s results grouped by a section title, sections in the order they first appear (the
/// section key path sorts first, so each section's models are consecutive in `results`).
///
/// ```swift
/// for section in observer.sections {
///     print(section.id, section.count)          // "Herbert" 3
/// }
/// ```
public struct SectionedResults<Element: PersistentModel, SectionTitle: Hashable>: RandomAccessCollection {
    private let storage: [ResultsSection<Element, SectionTitle>]

    /// Wraps sections.
    package init(_ sections: [ResultsSection<Element, SectionTitle>]) {
        self.storage = sections
    }

    /// The position of the first section.
    public var startIndex: Int { storage.startIndex }
    /// The position after the last section.
    public var endIndex: Int { storage.endIndex }
    /// The section at `position`.
    public subscript(position: Int) -> ResultsSection<Element, SectionTitle> { storage[position] }

    /// The section titles, in order.
    public var titles: [SectionTitle] { storage.map(\.id) }
}

/// One section of `SectionedResults`: its title and its models, in order.
public struct ResultsSection<Element: PersistentModel, SectionTitle: Hashable>: RandomAccessCollection, Identifiable {
    /// The section title shared by the section's models.
    public let id: SectionTitle
    /// Where the section's first model is in the observer's flat `results`.
    public let startOffset: Int
    private let models: [Element]

    /// Creates a section.
    package init(id: SectionTitle, startOffset: Int, models: [Element]) {
        self.id = id
        self.startOffset = startOffset
        self.models = models
    }

    /// The position of the first model.
    public var startIndex: Int { models.startIndex }
    /// The position after the last model.
    public var endIndex: Int { models.endIndex }
    /// The model at `position`.
    public subscript(position: Int) -> Element { models[position] }
}

extension SectionedResults {
    /// Groups models by the title `keyPath` reads, sections in order of first appearance.
    package init(grouping models: [Element], by keyPath: KeyPath<Element, SectionTitle>) {
        var order: [SectionTitle] = []
        var members: [SectionTitle: [Element]] = [:]
        var starts: [SectionTitle: Int] = [:]
        for (offset, model) in models.enumerated() {
            let title = model[keyPath: keyPath]
            if members[title] == nil {
                order.append(title)
                starts[title] = offset
            }
            members[title, default: []].append(model)
        }
        self.init(order.map { ResultsSection(id: $0, startOffset: starts[$0] ?? 0, models: members[$0] ?? []) })
    }
}
