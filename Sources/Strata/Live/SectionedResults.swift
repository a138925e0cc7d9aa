/// A `ResultsObserver`'s results grouped by a section title, sections in the order they first appear (the
/// section key path sorts first, so each section's models are consecutive in `results`).
///
/// ```swift
/// if let sections = observer.sections {
///     for section in sections { print(section.title, section.count) }   // "Herbert" 3
///     let herbert = sections[sectionTitle: "Herbert"]?.count ?? 0
/// }
/// ```
public struct SectionedResults<Element: PersistentModel, SectionTitle: Hashable>: RandomAccessCollection {
    private let storage: [ResultsSection<Element, SectionTitle>]
    /// Where each title's section is, for the lookups by title.
    private let positions: [SectionTitle: Int]

    /// Wraps sections, each with a title of its own.
    package init(_ sections: [ResultsSection<Element, SectionTitle>]) {
        self.storage = sections
        var positions: [SectionTitle: Int] = [:]
        positions.reserveCapacity(sections.count)
        for (position, section) in sections.enumerated() where positions[section.title] == nil {
            positions[section.title] = position
        }
        self.positions = positions
    }

    /// No sections.
    package init() {
        self.init([])
    }

    /// The position of the first section.
    public var startIndex: Int { storage.startIndex }
    /// The position after the last section.
    public var endIndex: Int { storage.endIndex }
    /// The section at `position`.
    public subscript(position: Int) -> ResultsSection<Element, SectionTitle> { storage[position] }

    /// The section titles, in order.
    public var sectionTitles: [SectionTitle] { storage.map(\.title) }

    /// The section with the given title, or `nil` when no section has it. O(1).
    public subscript(sectionTitle title: SectionTitle) -> ResultsSection<Element, SectionTitle>? {
        positions[title].map { storage[$0] }
    }

    /// Whether a section has the given title. O(1).
    public func contains(sectionTitle title: SectionTitle) -> Bool {
        positions[title] != nil
    }

    /// The position of the section with the given title, or `nil` when no section has it. O(1).
    public func index(ofSectionTitled title: SectionTitle) -> Int? {
        positions[title]
    }
}

extension SectionedResults: Equatable {
    /// Whether both have the same sections: the same titles, in the same order, with the same models (the same
    /// objects, whatever `==` a model class declares).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.storage == rhs.storage
    }
}

/// One section of `SectionedResults`: its title and its models, in order.
public struct ResultsSection<Element: PersistentModel, SectionTitle: Hashable>: RandomAccessCollection, Identifiable {
    /// The section title: the value of the `sectionBy` key path its models share.
    public let title: SectionTitle
    /// Where the section's first model is in the observer's flat `results`.
    public let startOffset: Int
    private let models: [Element]

    /// Creates a section.
    package init(title: SectionTitle, startOffset: Int, models: [Element]) {
        self.title = title
        self.startOffset = startOffset
        self.models = models
    }

    /// The section's identity, which is its `title`.
    public var id: SectionTitle { title }

    /// The position of the first model.
    public var startIndex: Int { models.startIndex }
    /// The position after the last model.
    public var endIndex: Int { models.endIndex }
    /// The model at `position`.
    public subscript(position: Int) -> Element { models[position] }
}

extension ResultsSection: Equatable {
    /// Whether both have the same title, start offset and models (the same objects, in the same order).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.title == rhs.title && lhs.startOffset == rhs.startOffset
            && lhs.models.count == rhs.models.count && zip(lhs.models, rhs.models).allSatisfy { $0 === $1 }
    }
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
        self.init(order.map { ResultsSection(title: $0, startOffset: starts[$0] ?? 0, models: members[$0] ?? []) })
    }
}
