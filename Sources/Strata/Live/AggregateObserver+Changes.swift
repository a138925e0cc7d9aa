extension AggregateObserver {
    /// A sequence of the groups published from now on: one element per refresh that changed them. It ends when the
    /// observer is freed.
    ///
    /// Every call makes a new sequence; each keeps all its elements until read. Read it on the observer's actor.
    ///
    /// ```swift
    /// for await groups in observer.changes {
    ///     show(groups)
    /// }
    /// ```
    public var changes: AsyncStream<[AggregateResult<Key, Value>]> {
        streams.makeStream()
    }
}
