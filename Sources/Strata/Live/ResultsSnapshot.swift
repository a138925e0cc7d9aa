/// What a `ResultsObserver` publishes after a refresh that changed its results: the new results and how they
/// differ from the previous ones.
///
/// Like the observer and its models, a snapshot belongs to the main actor: it can be passed anywhere, but its
/// `results` are read there.
@MainActor
public struct ResultsSnapshot<Element: PersistentModel>: Sendable {
    /// The results after the refresh.
    public let results: FetchedResults<Element>
    /// How to turn the previous results into `results`.
    public let changes: ResultsChangeSet

    /// Creates a snapshot.
    package init(results: FetchedResults<Element>, changes: ResultsChangeSet) {
        self.results = results
        self.changes = changes
    }
}
