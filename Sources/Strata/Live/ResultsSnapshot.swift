/// What a `ResultsObserver` publishes after a refresh that changed its results: the new results and how they
/// differ from the previous ones.
///
/// Like the observer and its models, a snapshot belongs to the observer's actor and is read there.
public struct ResultsSnapshot<Element: PersistentModel> {
    /// The results after the refresh.
    public let results: FetchResultsCollection<Element>
    /// How to turn the previous results into `results`.
    public let changes: ResultsChangeSet

    /// Creates a snapshot.
    package init(results: FetchResultsCollection<Element>, changes: ResultsChangeSet) {
        self.results = results
        self.changes = changes
    }
}
