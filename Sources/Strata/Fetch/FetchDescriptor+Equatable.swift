extension FetchDescriptor: Equatable {
    /// Whether two descriptors fetch the same models the same way: equal predicates (compared by their structure
    /// and captured values, as their descriptions spell them), sorts, limits, offsets and properties.
    public static func == (lhs: FetchDescriptor, rhs: FetchDescriptor) -> Bool {
        lhs.predicate?.description == rhs.predicate?.description && lhs.formatPredicate == rhs.formatPredicate
            && lhs.sortBy == rhs.sortBy && lhs.sortDescriptors == rhs.sortDescriptors
            && lhs.fetchLimit == rhs.fetchLimit && lhs.fetchOffset == rhs.fetchOffset
            && lhs.includePendingChanges == rhs.includePendingChanges
            && lhs.propertiesToFetch == rhs.propertiesToFetch
            && lhs.relationshipKeyPathsForPrefetching == rhs.relationshipKeyPathsForPrefetching
    }
}
