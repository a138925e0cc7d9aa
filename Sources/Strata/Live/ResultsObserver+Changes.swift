extension ResultsObserver {
    /// A sequence of the snapshots published from now on: one per refresh that changed the results. It ends
    /// when the observer is freed.
    ///
    /// Every call makes a new sequence; each keeps all its snapshots until read, so applying them in order
    /// keeps a copy of the results exact. Read it on the observer's actor, where its models belong.
    ///
    /// ```swift
    /// for await snapshot in observer.changes {
    ///     apply(snapshot.changes, newResults: snapshot.results)
    /// }
    /// ```
    public var changes: AsyncStream<ResultsSnapshot<Element>> {
        streams.makeStream()
    }
}
