/// The `changes` sequences of a live result (`ResultsObserver`, `AggregateObserver`): each call makes a new
/// stream, every publish yields to all of them, and the owner finishes them when it is freed.
///
/// Streams are read where their owner lives, so the elements stay on its actor; the compiler can't see that
/// through `AsyncStream`, which takes every element as `sending`.
struct PublishedStreams<Element> {
    private var continuations: [UInt64: AsyncStream<Element>.Continuation] = [:]
    private var nextIdentifier: UInt64 = 0

    /// A new stream of the elements published from now on.
    mutating func makeStream() -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream<Element>.makeStream()
        nextIdentifier += 1
        // A sequence nobody reads any more is dropped at the next publish, when yielding to it reports so.
        continuations[nextIdentifier] = continuation
        return stream
    }

    /// Hands `element` to every stream still read.
    mutating func yield(_ element: Element) {
        nonisolated(unsafe) let element = element
        for (identifier, continuation) in continuations {
            if case .terminated = continuation.yield(element) { continuations[identifier] = nil }
        }
    }

    /// Ends every stream.
    func finish() {
        for continuation in continuations.values { continuation.finish() }
    }
}
