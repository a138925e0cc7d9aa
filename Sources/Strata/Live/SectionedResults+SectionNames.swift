/// `SectionedResults` by the name SwiftData's iOS 27 beta SDK gives it, with its sections' titles called names:
/// `let sections: ResultsSectionCollection<Trip, String>? = observer.sections`.
public typealias ResultsSectionCollection<Element: PersistentModel, SectionName: Hashable> = SectionedResults<
    Element, SectionName
>

extension SectionedResults {
    /// The section names (their titles), in order.
    public var sectionNames: [SectionTitle] { sectionTitles }

    /// The section with the given name (its title), or `nil` when no section has it. O(1).
    public subscript(sectionName name: SectionTitle) -> ResultsSection<Element, SectionTitle>? {
        self[sectionTitle: name]
    }

    /// Whether a section has the given name (its title). O(1).
    public func contains(sectionName name: SectionTitle) -> Bool {
        contains(sectionTitle: name)
    }

    /// The position of the section with the given name (its title), or `nil` when no section has it. O(1).
    public func index(ofSectionNamed name: SectionTitle) -> Int? {
        index(ofSectionTitled: name)
    }
}

extension ResultsSection {
    /// The section's name: its `title`, the value of the `sectionBy` key path its models share.
    public var name: SectionTitle { title }
}
